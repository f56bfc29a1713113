package org.parl.it;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classes a class file names, read from its constant pool as jdeps reads it, without loading
 * anything: its class entries (what it instantiates, calls, casts to, catches) and the class names
 * inside its descriptors and signatures (the types of fields, parameters, results, generic
 * arguments and annotations).
 */
final class ClassReferences {

  private static final int MAGIC = 0xCAFEBABE;
  private static final Pattern DESCRIBED = Pattern.compile("L([\\w/$]+)[;<]");

  private ClassReferences() {}

  /** The internal names ({@code org/parl/x/Y}) that the class file names, its own among them. */
  static Set<String> of(byte[] classFile) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    if (in.readInt() != MAGIC) {
      throw new IOException("not a class file (no 0xCAFEBABE at its start)");
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    String[] utf8 = new String[count];
    List<Integer> classEntries = new ArrayList<>();
    int i = 1;
    while (i < count) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> utf8[i] = in.readUTF();
        case 7 -> classEntries.add(in.readUnsignedShort());
        case 8, 16, 19, 20 -> in.skipNBytes(2);
        case 15 -> in.skipNBytes(3);
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
        case 5, 6 -> in.skipNBytes(8);
        default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
      }
      // a long or a double takes two entries
      i += tag == 5 || tag == 6 ? 2 : 1;
    }
    Set<String> names = new TreeSet<>();
    for (int index : classEntries) {
      String name = utf8[index];
      // an array class is named by its descriptor: [[Lorg/parl/X; or [I
      int dims = 0;
      while (name.charAt(dims) == '[') {
        dims++;
      }
      if (dims == 0) {
        names.add(name);
      } else if (name.charAt(dims) == 'L') {
        names.add(name.substring(dims + 1, name.length() - 1));
      }
    }
    for (String text : utf8) {
      if (text != null) {
        Matcher m = DESCRIBED.matcher(text);
        while (m.find()) {
          names.add(m.group(1));
        }
      }
    }
    return names;
  }
}
