package org.parl.it.actors;

/** A record argument and result. */
public record Point(int x, int y, String label) {}
