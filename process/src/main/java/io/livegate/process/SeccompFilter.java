package io.livegate.process;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

  /** One architecture's numbers: the refused calls, and the three a filter looks into. */
  private record Table(
      int audit,
      Map<String, Integer> refused,
      int cloneCall,
      int clone3Call,
      int ioctl,
      boolean x32) {}

  private static final Table X86_64 =
      new Table(
          AUDIT_ARCH_X86_64,
          Map.ofEntries(
              Map.entry("ptrace", 101),
              Map.entry("pivot_root", 155),
              Map.entry("chroot", 161),
              Map.entry("mount", 165),
              Map.entry("umount2", 166),
              Map.entry("init_module", 175),
              Map.entry("delete_module", 176),
              Map.entry("kexec_load", 246),
              Map.entry("add_key", 248),
              Map.entry("request_key", 249),
              Map.entry("keyctl", 250),
              Map.entry("unshare", 272),
              Map.entry("perf_event_open", 298),
              Map.entry("setns", 308),
              Map.entry("process_vm_readv", 310),
              Map.entry("process_vm_writev", 311),
              Map.entry("kcmp", 312),
              Map.entry("finit_module", 313),
              Map.entry("kexec_file_load", 320),
              Map.entry("bpf", 321),
              Map.entry("userfaultfd", 323),
              Map.entry("open_tree", 428),
              Map.entry("move_mount", 429),
              Map.entry("fsopen", 430),
              Map.entry("fsconfig", 431),
              Map.entry("fsmount", 432),
              Map.entry("fspick", 433),
              Map.entry("pidfd_getfd", 438),
              Map.entry("mount_setattr", 442)),
          56,
          435,
          16,
          true);

  private static final Table AARCH64 =
      new Table(
          AUDIT_ARCH_AARCH64,
          Map.ofEntries(
              Map.entry("umount2", 39),
              Map.entry("mount", 40),
              Map.entry("pivot_root", 41),
              Map.entry("chroot", 51),
              Map.entry("unshare", 97),
              Map.entry("kexec_load", 104),
              Map.entry("init_module", 105),
              Map.entry("delete_module", 106),
              Map.entry("ptrace", 117),
              Map.entry("add_key", 217),
              Map.entry("request_key", 218),
              Map.entry("keyctl", 219),
              Map.entry("perf_event_open", 241),
              Map.entry("setns", 268),
              Map.entry("process_vm_readv", 270),
              Map.entry("process_vm_writev", 271),
              Map.entry("kcmp", 272),
              Map.entry("finit_module", 273),
              Map.entry("bpf", 280),
              Map.entry("userfaultfd", 282),
              Map.entry("kexec_file_load", 294),
              Map.entry("open_tree", 428),
              Map.entry("move_mount", 429),
              Map.entry("fsopen", 430),
              Map.entry("fsconfig", 431),
              Map.entry("fsmount", 432),
              Map.entry("fspick", 433),
              Map.entry("pidfd_getfd", 438),
              Map.entry("mount_setattr", 442)),
          220,
          435,
          29,
          false);

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
    table.refused().values().stream()
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
