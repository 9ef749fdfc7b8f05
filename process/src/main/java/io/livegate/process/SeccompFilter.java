package io.livegate.process;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The system calls the code being deployed may not make, as the classic BPF program that bubblewrap
 * installs with {@code --seccomp FD} right before it starts the command: no mount or unmount (which
 * would uncover the state directory a tmpfs hides), no new namespaces ({@code unshare}, {@code
 * setns}, {@code clone} with a namespace flag; {@code clone3}, whose flags a filter cannot read,
 * answers "not implemented" so that the C library falls back to {@code clone}), no {@code ptrace}
 * or {@code process_vm_readv}/{@code writev} (another process's memory), no kernel modules,
 * keyring, {@code bpf}, {@code perf_event_open} or {@code userfaultfd}, and no {@code
 * TIOCSTI}/{@code TIOCLINUX} (typing into a terminal). A refused call fails with {@code EPERM};
 * nothing is killed, so a provider that merely probes gets an error it can report.
 *
 * <p>The numbers are those of the kernel's tables for x86_64 ({@code
 * arch/x86/entry/syscalls/syscall_64.tbl}) and aarch64 ({@code include/uapi/asm-generic/unistd.h});
 * x86_64's x32 numbers (bit 30) and every other architecture (i386 through {@code int 0x80}) are
 * refused whole, so that no second table of numbers goes around the first.
 */
final class SeccompFilter {
  private static final int AUDIT_ARCH_X86_64 = 0xC000003E;
  private static final int AUDIT_ARCH_AARCH64 = 0xC00000B7;
  private static final int X32_SYSCALL_BIT = 0x40000000;

  /** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET (and NEWTIME, 0x80). */
  private static final int NAMESPACE_FLAGS =
      0x00020000
          | 0x02000000
          | 0x04000000
          | 0x08000000
          | 0x10000000
          | 0x20000000
          | 0x40000000
          | 0x00000080;

  private static final int TIOCSTI = 0x5412;
  private static final int TIOCLINUX = 0x541C;

  private static final int RET_ALLOW = 0x7fff0000;
  private static final int RET_ERRNO = 0x00050000;
  private static final int EPERM = 1;
  private static final int ENOSYS = 38;

  // struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]
  private static final int OFFSET_NR = 0;
  private static final int OFFSET_ARCH = 4;
  private static final int OFFSET_ARG0_LOW = 16;
  private static final int OFFSET_ARG1_LOW = 24;

  private static final short LD_W_ABS = 0x20;
  private static final short JEQ_K = 0x15;
  private static final short JGE_K = 0x35;
  private static final short JSET_K = 0x45;
  private static final short RET_K = 0x06;

  /** A refused call, by its number on x86_64 and on aarch64. */
  private record Call(String name, int x8664, int aarch64) {}

  private static final List<Call> REFUSED =
      List.of(
          new Call("ptrace", 101, 117),
          new Call("pivot_root", 155, 41),
          new Call("chroot", 161, 51),
          new Call("mount", 165, 40),
          new Call("umount2", 166, 39),
          new Call("init_module", 175, 105),
          new Call("delete_module", 176, 106),
          new Call("kexec_load", 246, 104),
          new Call("add_key", 248, 217),
          new Call("request_key", 249, 218),
          new Call("keyctl", 250, 219),
          new Call("unshare", 272, 97),
          new Call("perf_event_open", 298, 241),
          new Call("setns", 308, 268),
          new Call("process_vm_readv", 310, 270),
          new Call("process_vm_writev", 311, 271),
          new Call("kcmp", 312, 272),
          new Call("finit_module", 313, 273),
          new Call("kexec_file_load", 320, 294),
          new Call("bpf", 321, 280),
          new Call("userfaultfd", 323, 282),
          new Call("open_tree", 428, 428),
          new Call("move_mount", 429, 429),
          new Call("fsopen", 430, 430),
          new Call("fsconfig", 431, 431),
          new Call("fsmount", 432, 432),
          new Call("fspick", 433, 433),
          new Call("pidfd_getfd", 438, 438),
          new Call("mount_setattr", 442, 442));

  /** One architecture: its audit id, its number of each refused call, and the three looked into. */
  private record Table(
      int audit,
      ToIntFunction<Call> number,
      int cloneCall,
      int clone3Call,
      int ioctl,
      boolean x32) {}

  private static final Table X86_64 = new Table(AUDIT_ARCH_X86_64, Call::x8664, 56, 435, 16, true);
  private static final Table AARCH64 =
      new Table(AUDIT_ARCH_AARCH64, Call::aarch64, 220, 435, 29, false);

  private SeccompFilter() {}

  /** The program as {@code struct sock_filter[]} in the machine's byte order, as bwrap reads it. */
  static byte[] program() {
    List<Instruction> program = new ArrayList<>();
    program.add(load(OFFSET_ARCH));
    program.add(jumpIfEqual(X86_64.audit(), "x86_64", null));
    program.add(jumpIfEqual(AARCH64.audit(), "aarch64", null));
    program.add(label("other", ret(RET_ERRNO | EPERM)));
    block(program, "x86_64", X86_64);
    block(program, "aarch64", AARCH64);
    return assemble(program);
  }

  private static void block(List<Instruction> program, String name, Table table) {
    program.add(label(name, load(OFFSET_NR)));
    if (table.x32()) {
      program.add(jump(JGE_K, X32_SYSCALL_BIT, name + ".deny", null));
    }
    program.add(jumpIfEqual(table.cloneCall(), name + ".clone", null));
    program.add(jumpIfEqual(table.clone3Call(), name + ".enosys", null));
    program.add(jumpIfEqual(table.ioctl(), name + ".ioctl", null));
    REFUSED.stream()
        .mapToInt(table.number())
        .sorted()
        .forEach(number -> program.add(jumpIfEqual(number, name + ".deny", null)));
    program.add(ret(RET_ALLOW));
    // BPF jumps only forward: each check below ends in an allow of its own
    program.add(label(name + ".clone", load(OFFSET_ARG0_LOW)));
    program.add(jump(JSET_K, NAMESPACE_FLAGS, name + ".deny", null));
    program.add(ret(RET_ALLOW));
    program.add(label(name + ".ioctl", load(OFFSET_ARG1_LOW)));
    program.add(jumpIfEqual(TIOCSTI, name + ".deny", null));
    program.add(jumpIfEqual(TIOCLINUX, name + ".deny", null));
    program.add(ret(RET_ALLOW));
    program.add(label(name + ".deny", ret(RET_ERRNO | EPERM)));
    program.add(label(name + ".enosys", ret(RET_ERRNO | ENOSYS)));
  }

  /**
   * One instruction; a jump names its targets by label ({@code null}: the next instruction), which
   * {@link #assemble} turns into the forward offsets BPF takes.
   */
  private record Instruction(
      String label, short code, String ifTrue, String ifFalse, int constant) {}

  private static Instruction load(int offset) {
    return new Instruction(null, LD_W_ABS, null, null, offset);
  }

  private static Instruction ret(int value) {
    return new Instruction(null, RET_K, null, null, value);
  }

  private static Instruction jumpIfEqual(int value, String ifTrue, String ifFalse) {
    return jump(JEQ_K, value, ifTrue, ifFalse);
  }

  private static Instruction jump(short code, int value, String ifTrue, String ifFalse) {
    return new Instruction(null, code, ifTrue, ifFalse, value);
  }

  private static Instruction label(String label, Instruction instruction) {
    return new Instruction(
        label,
        instruction.code(),
        instruction.ifTrue(),
        instruction.ifFalse(),
        instruction.constant());
  }

  private static byte[] assemble(List<Instruction> program) {
    ByteBuffer bytes = ByteBuffer.allocate(program.size() * 8).order(ByteOrder.nativeOrder());
    for (int index = 0; index < program.size(); index++) {
      Instruction instruction = program.get(index);
      bytes.putShort(instruction.code());
      bytes.put(offset(program, index, instruction.ifTrue()));
      bytes.put(offset(program, index, instruction.ifFalse()));
      bytes.putInt(instruction.constant());
    }
    return bytes.array();
  }

  private static byte offset(List<Instruction> program, int from, String label) {
    if (label == null) {
      return 0;
    }
    for (int index = from + 1; index < program.size(); index++) {
      if (label.equals(program.get(index).label())) {
        int offset = index - from - 1;
        if (offset > 255) {
          throw new IllegalStateException("a BPF jump to " + label + " is too far: " + offset);
        }
        return (byte) offset;
      }
    }
    throw new IllegalStateException("no BPF instruction after " + from + " is labelled " + label);
  }
}
