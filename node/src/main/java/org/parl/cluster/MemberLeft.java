package org.parl.cluster;

/**
 * A Hazelcast member left or died.
 *
 * @param memberId its Hazelcast member UUID, which Hazelcast assigns and keeps unique among the
 *     members: the identity to compare with (never a member attribute, which any member sets itself)
 * @param nodeId the Vert.x node id it announced in its attributes, or null when it announced none
 */
public record MemberLeft(String memberId, String nodeId) {}
