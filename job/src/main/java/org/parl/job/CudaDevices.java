package org.parl.job;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import com.sun.jna.ptr.IntByReference;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The devices the CUDA driver shows this process (after {@code CUDA_VISIBLE_DEVICES}), read
 * through the driver API of {@code libcuda.so.1} with JNA: {@code cuInit}, {@code cuDeviceGetCount},
 * {@code cuDeviceGet} and {@code cuDeviceGetUuid_v2} (CUDA 11.4 and later; it gives a MIG instance's
 * own UUID), else {@code cuDeviceGetUuid} (which gives a MIG instance's parent GPU).
 *
 * <p>The library is found as the dynamic linker finds it: {@code LD_LIBRARY_PATH} (which a worker
 * passes to its jobs), then the system's library cache.
 */
final class CudaDevices {

  static final String LIBRARY = "libcuda.so.1";
  /** {@code CUDA_ERROR_NO_DEVICE}: the driver works and shows no device. */
  private static final int NO_DEVICE = 100;

  /** The library cannot be loaded: no NVIDIA driver here. */
  static final class Unavailable extends Exception {
    Unavailable(String message) {
      super(message, null, false, false);
    }
  }

  /** The driver failed a call. */
  static final class DriverError extends Exception {
    DriverError(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * What the driver shows.
   *
   * @param uuids each device's 16 bytes as 32 lowercase hex digits, in CUDA's order
   * @param migAware whether they come from {@code cuDeviceGetUuid_v2}, which tells MIG instances apart
   */
  record Seen(List<String> uuids, boolean migAware) {}

  private CudaDevices() {}

  static Seen read() throws Unavailable, DriverError {
    NativeLibrary lib;
    try {
      lib = NativeLibrary.getInstance(LIBRARY);
    } catch (UnsatisfiedLinkError e) {
      throw new Unavailable(LIBRARY + " cannot be loaded (" + firstLine(e.getMessage()) + ")");
    } catch (LinkageError e) {
      // JNA's own native part could not be loaded (no writable temporary folder, say)
      throw new Unavailable("JNA cannot call native code here (" + e + ")");
    }
    int init = call(lib, "cuInit", 0);
    if (init == NO_DEVICE) {
      return new Seen(List.of(), true);
    }
    check("cuInit", init);
    IntByReference count = new IntByReference();
    check("cuDeviceGetCount", call(lib, "cuDeviceGetCount", count));
    Function uuidV2 = function(lib, "cuDeviceGetUuid_v2");
    Function uuid = uuidV2 != null ? uuidV2 : function(lib, "cuDeviceGetUuid");
    if (uuid == null) {
      throw new DriverError(LIBRARY + " has no cuDeviceGetUuid");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count.getValue(); i++) {
      IntByReference device = new IntByReference();
      check("cuDeviceGet", call(lib, "cuDeviceGet", device, i));
      byte[] bytes = new byte[16];
      check(uuid.getName(), uuid.invokeInt(new Object[] {bytes, device.getValue()}));
      out.add(HexFormat.of().formatHex(bytes));
    }
    return new Seen(List.copyOf(out), uuidV2 != null);
  }

  private static int call(NativeLibrary lib, String name, Object... args) throws DriverError {
    Function f = function(lib, name);
    if (f == null) {
      throw new DriverError(LIBRARY + " has no " + name);
    }
    return f.invokeInt(args);
  }

  private static Function function(NativeLibrary lib, String name) {
    try {
      return lib.getFunction(name);
    } catch (UnsatisfiedLinkError e) {
      return null;
    }
  }

  private static void check(String call, int status) throws DriverError {
    if (status != 0) {
      throw new DriverError(call + " failed with CUDA error " + status);
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no reason given";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
