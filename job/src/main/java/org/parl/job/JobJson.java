package org.parl.job;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The job process's one JSON mapper: control messages, HELLO, create headers, error answers. */
final class JobJson {

  static final ObjectMapper MAPPER = new ObjectMapper();

  private JobJson() {}
}
