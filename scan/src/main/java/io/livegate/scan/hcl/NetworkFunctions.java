package io.livegate.scan.hcl;

import static io.livegate.scan.hcl.StandardFunctions.VARIADIC;
import static io.livegate.scan.hcl.StandardFunctions.define;
import static io.livegate.scan.hcl.StringFunctions.str;

import io.livegate.scan.hcl.StandardFunctions.Definition;
import io.livegate.scan.hcl.Values.ValueError;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** Terraform's IP network functions, for IPv4 and IPv6 prefixes. */
final class NetworkFunctions {
  private NetworkFunctions() {}

  /** An address as a number, its width in bits, and a prefix length. */
  private record Prefix(BigInteger address, int bits, int length) {
    BigInteger network() {
      BigInteger hostMask = BigInteger.ONE.shiftLeft(bits - length).subtract(BigInteger.ONE);
      return address.andNot(hostMask);
    }

    String format(BigInteger value) {
      if (bits == 32) {
        long v = value.longValue();
        return ((v >> 24) & 255)
            + "."
            + ((v >> 16) & 255)
            + "."
            + ((v >> 8) & 255)
            + "."
            + (v & 255);
      }
      StringBuilder out = new StringBuilder();
      for (int group = 7; group >= 0; group--) {
        out.append(Integer.toHexString(value.shiftRight(group * 16).intValue() & 0xffff));
        if (group > 0) {
          out.append(':');
        }
      }
      return out.toString().replaceFirst("(^|:)(0(:|$)){2,}", "::").replaceFirst(":::", "::");
    }
  }

  static void register(Map<String, Definition> into) {
    define(
        into,
        "cidrhost",
        2,
        args -> {
          Prefix prefix = prefix(str(args, 0));
          BigInteger host = Values.wholeNumber(args.get(1));
          BigInteger size = BigInteger.ONE.shiftLeft(prefix.bits() - prefix.length());
          if (host.signum() < 0) {
            host = host.add(size);
          }
          if (host.signum() < 0 || host.compareTo(size) >= 0) {
            throw new ValueError(
                "prefix of " + prefix.length() + " bits has no host " + args.get(1));
          }
          return prefix.format(prefix.network().add(host));
        });
    define(
        into,
        "cidrnetmask",
        1,
        args -> {
          Prefix prefix = prefix(str(args, 0));
          if (prefix.bits() != 32) {
            throw new ValueError("only IPv4 prefixes have a netmask");
          }
          BigInteger all = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);
          return prefix.format(
              all.shiftRight(32 - prefix.length()).shiftLeft(32 - prefix.length()).and(all));
        });
    define(
        into,
        "cidrsubnet",
        3,
        args ->
            subnet(
                prefix(str(args, 0)),
                Values.integer(args.get(1)),
                Values.wholeNumber(args.get(2))));
    define(into, "cidrsubnets", 1, VARIADIC, NetworkFunctions::cidrsubnets);
  }

  private static Prefix prefix(String cidr) {
    int slash = cidr.indexOf('/');
    if (slash < 0) {
      throw new ValueError("invalid CIDR address \"" + cidr + "\"");
    }
    String address = cidr.substring(0, slash);
    int length;
    try {
      length = Integer.parseInt(cidr.substring(slash + 1));
    } catch (NumberFormatException e) {
      throw new ValueError("invalid CIDR address \"" + cidr + "\"");
    }
    Prefix prefix = address.contains(":") ? ipv6(address, length) : ipv4(address, length);
    if (length < 0 || length > prefix.bits()) {
      throw new ValueError("invalid CIDR address \"" + cidr + "\"");
    }
    return prefix;
  }

  private static Prefix ipv4(String address, int length) {
    String[] octets = address.split("\\.", -1);
    if (octets.length != 4) {
      throw new ValueError("invalid IP address \"" + address + "\"");
    }
    long value = 0;
    for (String octet : octets) {
      int part;
      try {
        part = Integer.parseInt(octet);
      } catch (NumberFormatException e) {
        throw new ValueError("invalid IP address \"" + address + "\"");
      }
      if (part < 0 || part > 255) {
        throw new ValueError("invalid IP address \"" + address + "\"");
      }
      value = value * 256 + part;
    }
    return new Prefix(BigInteger.valueOf(value), 32, length);
  }

  private static Prefix ipv6(String address, int length) {
    String[] halves = address.split("::", -1);
    if (halves.length > 2) {
      throw new ValueError("invalid IP address \"" + address + "\"");
    }
    List<String> head = groups(halves[0]);
    List<String> tail = halves.length == 2 ? groups(halves[1]) : List.of();
    int missing = 8 - head.size() - tail.size();
    if (missing < 0 || (halves.length == 1 && missing != 0)) {
      throw new ValueError("invalid IP address \"" + address + "\"");
    }
    List<String> all = new ArrayList<>(head);
    all.addAll(Collections.nCopies(missing, "0"));
    all.addAll(tail);
    BigInteger value = BigInteger.ZERO;
    for (String group : all) {
      try {
        value = value.shiftLeft(16).add(BigInteger.valueOf(Integer.parseInt(group, 16)));
      } catch (NumberFormatException e) {
        throw new ValueError("invalid IP address \"" + address + "\"");
      }
    }
    return new Prefix(value, 128, length);
  }

  private static List<String> groups(String part) {
    return part.isEmpty() ? List.of() : List.of(part.split(":", -1));
  }

  private static String subnet(Prefix prefix, int newBits, BigInteger number) {
    int length = prefix.length() + newBits;
    if (newBits < 0 || length > prefix.bits()) {
      throw new ValueError(
          "insufficient address space to extend prefix of " + prefix.length() + " by " + newBits);
    }
    if (number.signum() < 0 || number.bitLength() > newBits) {
      throw new ValueError(
          "prefix extension of " + newBits + " does not accommodate a subnet numbered " + number);
    }
    BigInteger address = prefix.network().or(number.shiftLeft(prefix.bits() - length));
    return prefix.format(address) + "/" + length;
  }

  /** Consecutive subnets of the given sizes, each aligned after the one before. */
  private static Object cidrsubnets(List<Object> args) {
    Prefix prefix = prefix(str(args, 0));
    List<Object> result = new ArrayList<>();
    BigInteger next = prefix.network();
    BigInteger end =
        prefix.network().add(BigInteger.ONE.shiftLeft(prefix.bits() - prefix.length()));
    for (Object argument : args.subList(1, args.size())) {
      int newBits = Values.integer(argument);
      int length = prefix.length() + newBits;
      if (newBits < 1 || length > prefix.bits()) {
        throw new ValueError("would extend prefix to " + length + " bits, which is too long");
      }
      BigInteger size = BigInteger.ONE.shiftLeft(prefix.bits() - length);
      BigInteger aligned = next.add(size).subtract(BigInteger.ONE).divide(size).multiply(size);
      if (aligned.add(size).compareTo(end) > 0) {
        throw new ValueError(
            "not enough remaining address space for a subnet with a prefix of " + length + " bits");
      }
      result.add(prefix.format(aligned) + "/" + length);
      next = aligned.add(size);
    }
    return Collections.unmodifiableList(result);
  }
}
