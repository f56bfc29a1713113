package org.parl.internal.wire;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * A {@link SharedArea} used by one data connection, in two halves: one the client writes and the
 * job reads (requests), one the job writes and the client reads (answers). Large primitive arrays
 * of a message are copied into the writer's half and the frame carries only where they lie: one
 * copy in by the sender, one copy out by the receiver, the least there can be between two Java
 * heaps.
 *
 * <p>Each half holds one message at a time and is owned through a word at its start: 0 when free;
 * while a sender fills it, {@link #CLAIMING}; then the id of the frame that refers to it. Whoever
 * receives frame {@code id} frees the half once it has read the frame ({@link #received}): a
 * compare-and-set from {@code id} to 0, so a frame that did not use the half frees nothing, and no
 * extra message is needed. A sender that finds its half taken (an earlier message not yet read, a
 * concurrent call) keeps to the socket for that message: the link never waits.
 */
public final class SharedLink implements AutoCloseable {

  /** Bytes per direction when nothing smaller is asked for: arrays up to this size avoid the socket. */
  public static final int DEFAULT_HALF = 32 << 20;
  /**
   * An area takes at most 1/{@value} of the memory limit of the job that maps it (its touched pages
   * are resident in the job and count against the limit): the client offers no more, the job maps no more.
   */
  public static final int LIMIT_SHARE = 8;
  /** The least room per direction worth setting up: a few arrays of the minimum size. */
  public static final int MIN_HALF = 4 * SharedArea.MIN_BYTES;
  /** The owner word, padded to a cache line so that the two halves' words do not share one. */
  private static final int HEADER = 64;
  /** The owner word of a half being filled, before its frame has an id. */
  static final long CLAIMING = -1;
  private static final VarHandle WORD = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private final SharedArea area;
  private final Half out;
  private final Half in;
  private volatile Frames.RoomCheck room = n -> { };

  private SharedLink(SharedArea area, boolean client) throws BadFrameException {
    this.area = area;
    int half = area.size() / 2;
    Half requests = new Half(area.slice(0, HEADER), area.slice(HEADER, half - HEADER));
    Half answers = new Half(area.slice(half, HEADER), area.slice(half + HEADER, half - HEADER));
    this.out = client ? requests : answers;
    this.in = client ? answers : requests;
  }

  /** The size of an area with {@code halfBytes} of room per direction. */
  public static int areaBytes(int halfBytes) {
    return 2 * (HEADER + halfBytes);
  }

  /** The room per direction of an area of {@code areaBytes}. */
  public static int halfBytes(int areaBytes) {
    return areaBytes / 2 - HEADER;
  }

  /**
   * The client's side: makes a new area under {@code parent} (after sweeping areas whose creator died
   * before its peer mapped them).
   *
   * @throws IOException when it cannot be made (the connection then keeps to the socket)
   */
  public static SharedLink create(Path parent, int halfBytes) throws IOException {
    if (halfBytes < MIN_HALF) {
      throw new IllegalArgumentException("a shared link needs at least " + MIN_HALF + " bytes per direction");
    }
    SharedArea.sweep(parent);
    SharedArea area = SharedArea.create(parent, areaBytes(halfBytes));
    try {
      return new SharedLink(area, true);
    } catch (BadFrameException | RuntimeException e) {
      area.close();
      throw e;
    }
  }

  /**
   * The job's side: maps the area its client announced, after checking its path, owner, mode and
   * size ({@link SharedArea#open}), and unlinks it (both sides have mapped it now).
   *
   * @throws IOException when the announced file is not a private area of this user
   */
  public static SharedLink open(Path file, int size) throws IOException {
    if (!SharedArea.looksLikeArea(file)) {
      throw new IOException(file + " is not the path of a shared area");
    }
    if (size < areaBytes(MIN_HALF) || size % 2 != 0) {
      throw new IOException("a shared area of " + size + " bytes is not one this job uses");
    }
    SharedArea area = SharedArea.open(file, size);
    area.unlink();
    try {
      return new SharedLink(area, false);
    } catch (BadFrameException | RuntimeException e) {
      area.close();
      throw e;
    }
  }

  /** The announced file (gone once both sides mapped it). */
  public Path file() {
    return area.file();
  }

  public int size() {
    return area.size();
  }

  /** Removes the file: called once the peer has said it mapped the area, or gave up on it. */
  public void unlink() {
    area.unlink();
  }

  /**
   * Checks an array's bytes before the array is allocated for them (the job's heap check, as for a
   * payload on the socket).
   */
  public void checkRoomWith(Frames.RoomCheck check) {
    this.room = check;
  }

  /** A new message's use of the outbound half, claimed when its first large array needs it. */
  public Lease lease() {
    return new Lease(out);
  }

  /**
   * The inbound half's bytes {@code [offset, offset + length)}, as announced by the peer, after
   * checking that they lie inside it and that there is room for what will be made of them.
   *
   * @throws BadFrameException when they do not lie inside the half
   */
  ByteBuffer inbound(long offset, int length) throws IOException {
    SharedArea.checkInside(offset, length, in.data.capacity());
    room.check(length);
    return in.data.slice((int) offset, length).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Frame {@code id} from the peer has been read: if it used the inbound half, the half is free
   * again. Called after every frame received, whether it used the half or not.
   */
  public void received(long id) {
    WORD.compareAndSet(in.owner, 0, id, 0L);
  }

  /** Whether the outbound half is free (for tests). */
  boolean outboundFree() {
    return (long) WORD.getVolatile(out.owner, 0) == 0;
  }

  /** Closes the file; each mapping goes when it is collected, so a late reader never faults. */
  @Override
  public void close() {
    try {
      area.close();
    } catch (IOException e) {
      // nothing is left to release
    }
  }

  private record Half(ByteBuffer owner, ByteBuffer data) {}

  /**
   * One message's use of the outbound half: claimed by the first array that {@link #place}s into it,
   * then given to the frame's id ({@link #commit}) before the frame is sent, or freed
   * ({@link #abandon}) when the frame is not sent. Confined to the thread that builds the message.
   */
  public static final class Lease {
    /** The use of no shared memory: every array stays in the frame; committing or abandoning it does nothing. */
    public static final Lease NONE = new Lease(null);

    private final Half half;
    private boolean claimed;
    private boolean placed;
    private boolean refused;
    private int used;

    private Lease(Half half) {
      this.half = half;
    }

    /**
     * Room for {@code bytes} in the half (a little-endian view to fill, and its offset), or null
     * when the half is taken by another message or too full: the array then goes on the socket.
     */
    Place place(int bytes) {
      if (half == null || refused || bytes > half.data.capacity() - used) {
        return null;
      }
      if (!claimed) {
        if (!WORD.compareAndSet(half.owner, 0, 0L, CLAIMING)) {
          refused = true;
          return null;
        }
        claimed = true;
      }
      int at = used;
      used += bytes;
      placed = true;
      return new Place(at, half.data.slice(at, bytes).order(ByteOrder.LITTLE_ENDIAN));
    }

    /** Whether the message put anything in the half. */
    public boolean used() {
      return placed;
    }

    /** The message leaves as frame {@code id}: its receiver frees the half once it has read it. */
    public void commit(long id) {
      if (claimed) {
        WORD.setVolatile(half.owner, 0, id);
        claimed = false;
      }
    }

    /** The message will not be sent: the half is free again. */
    public void abandon() {
      if (claimed) {
        WORD.setVolatile(half.owner, 0, 0L);
        claimed = false;
      }
    }
  }

  /** Where one array lies in the half. */
  record Place(int offset, ByteBuffer bytes) {}
}
