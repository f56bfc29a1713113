package org.parl.job;

import static org.parl.wire.ErrorKind.INVALID;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.parl.wire.Frames;

/**
 * The JSON header of a CREATE frame, checked: the interface, the class and the constructor of the
 * actor, the code blobs its class loader is made of, and the files for its working directory.
 *
 * @param ctor the constructor's signature, as {@link org.parl.wire.Signatures} writes it
 */
record CreateRequest(String api, String impl, String ctor, List<String> code, List<ShippedFile> files) {

  private static final ObjectMapper JSON = JobJson.MAPPER;

  /** A distributed file: where it goes in the working directory, and the blob that holds it. */
  record ShippedFile(String name, String hash) {}

  static CreateRequest of(Frames.Frame frame) throws CallFailure {
    Map<?, ?> header;
    try {
      header = JSON.readValue(Frames.name(frame.payload(), frame.length()), Map.class);
    } catch (IOException e) {
      throw new CallFailure(INVALID, "unreadable create request: " + e.getMessage());
    }
    return new CreateRequest(string(header, "api"), string(header, "impl"), string(header, "ctor"),
        code(header.get("code")), files(header.get("files")));
  }

  private static List<String> code(Object code) throws CallFailure {
    if (!(code instanceof List<?> hashes)) {
      throw new CallFailure(INVALID, "the create request lists no code");
    }
    List<String> out = new ArrayList<>();
    for (Object h : hashes) {
      if (!(h instanceof String hash)) {
        throw new CallFailure(INVALID, "code blob " + h + " was not shipped to this job");
      }
      out.add(hash);
    }
    return out;
  }

  private static List<ShippedFile> files(Object files) throws CallFailure {
    if (files == null) {
      return List.of();
    }
    if (!(files instanceof List<?> list)) {
      throw new CallFailure(INVALID, "'files' must be a list");
    }
    List<ShippedFile> out = new ArrayList<>();
    for (Object o : list) {
      if (!(o instanceof Map<?, ?> f) || !(f.get("name") instanceof String name) || !(f.get("hash") instanceof String hash)) {
        throw new CallFailure(INVALID, "each distributed file needs a name and a hash");
      }
      out.add(new ShippedFile(name, hash));
    }
    return out;
  }

  private static String string(Map<?, ?> m, String key) throws CallFailure {
    if (m.get(key) instanceof String s && !s.isEmpty()) {
      return s;
    }
    throw new CallFailure(INVALID, "the create request lacks '" + key + "'");
  }
}
