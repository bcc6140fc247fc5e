@libtracer
Feature: libtracer iterative parsing of nested TLVs
  libtracer-01, §Iterative parsing requirement. Structured TLVs (PL=1)
  are parsed iteratively with an explicit work stack, one node per open
  level. Depth is unbounded by the wire format; the work-stack budget is a
  receiver option, and a frame beyond it is
  ERROR{tr::tlv::nesting_too_deep}. Protocol shapes nest at most 5 deep,
  so every receiver parses them at any budget. Where the spec is silent
  (docs/libtracer.md): children fill their parent's payload exactly, and a
  PL=1 TLV with an empty payload is valid.

  "N nested user frames around X" is N structured user TLVs (type 0x80,
  opt 0x40, or 0x48 once a payload passes 65535 bytes) one inside the
  other, X innermost: N open levels, N+1 with X structured. "With a work
  budget of N" passes the receiver's budget in open levels (values below 5
  are raised to 5).

  Rule: LT-NEST-01 Nested TLVs are parsed iteratively with an explicit work stack, never recursively

    Scenario: A nest 100,000 levels deep, deeper than a recursive parser's call stack allows
      Given 100000 nested user frames around "09 00 00 00"
      When it is received with a work budget of 100000
      Then it is accepted
      And there are 100001 frames

    Scenario: The same nest on a stream
      Given 100000 nested user frames around "09 00 00 00"
      When it is received on a stream with a work budget of 100000
      Then it is accepted
      And there are 100001 frames

  Rule: LT-NEST-02 Nesting depth is unbounded by the format; the work-stack budget is a receiver option, not a constant

    Scenario Outline: <levels> open levels at a budget of <budget>: <verdict>
      Given <levels> nested user frames around "09 00 00 00"
      When it is received with a work budget of <budget>
      Then it is <verdict>

      Examples:
        | levels | budget | verdict                                                                   |
        | 33     | 33     | accepted                                                                  |
        | 33     | 32     | rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"         |
        | 40     | 40     | accepted                                                                  |
        | 40     | 1000   | accepted                                                                  |
        | 1000   | 1000   | accepted                                                                  |
        | 1001   | 1000   | rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"         |

  Rule: LT-NEST-03 A frame beyond the receiver's work-stack budget is rejected with tr::tlv::nesting_too_deep

    Scenario: Ten levels at a budget of 7
      Given 10 nested user frames around "09 00 00 00"
      When it is received with a work budget of 7
      Then it is rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"

    Scenario: Ten levels at a budget of 9 and of 10
      Given 10 nested user frames around "09 00 00 00"
      When it is received with a work budget of 9
      Then it is rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"
      When it is received with a work budget of 10
      Then it is accepted

    @reading:LT-READ-12
    @reading:LT-READ-02
    Scenario: An empty structured TLV is an open level too
      Given 10 nested user frames around ""
      When it is received with a work budget of 9
      Then it is rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"

    @reading:LT-READ-12=empty-free
    Scenario: Under reading empty-free, an empty structured TLV needs no node
      Given 10 nested user frames around ""
      When it is received with a work budget of 9
      Then it is accepted
      And there are 10 frames

    Scenario: On a stream as well
      Given 10 nested user frames around "09 00 00 00"
      When it is received on a stream with a work budget of 7
      Then it is rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"

    Scenario: With per-frame reports the deep frame is rejected and the next one parsed
      Given 10 nested user frames around "09 00 00 00"
      And the bytes "09 00 00 00"
      When it is received with a work budget of 7 and per-frame reports
      Then it is accepted
      And frame 1 is rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"
      And there are 2 top-level frames

  Rule: LT-NEST-04 Protocol shapes (core types) nest at most 5 deep: every receiver parses them at any budget (project-defined)

    @reading:LT-READ-18
    Scenario Outline: Five structured levels at a budget of <budget>
      Given the frames:
        | depth | type | opt | payload |
        | 0     | 80   | 40  |         |
        | 1     | 06   | 40  |         |
        | 2     | 01   | 40  |         |
        | 3     | 03   | 40  |         |
        | 4     | 04   | 40  |         |
        | 5     | 02   | 00  | 61      |
      When it is received with a work budget of <budget>
      Then it is accepted
      And there are 6 frames

      Examples:
        | budget |
        | 1      |
        | 2      |
        | 4      |
        | 5      |

    @reading:LT-READ-18=budget-as-configured
    Scenario: Under reading budget-as-configured, a budget of 1 is used as given
      Given the frames:
        | depth | type | opt | payload |
        | 0     | 06   | 40  |         |
        | 1     | 03   | 40  |         |
        | 2     | 02   | 00  | 61      |
      When it is received with a work budget of 1
      Then it is rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"

    Scenario: Six levels exceed the smallest budget
      Given 6 nested user frames around "09 00 00 00"
      When it is received with a work budget of 1
      Then it is rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"

  Rule: LT-NEST-05 Children are complete TLVs that fill their parent's payload exactly; otherwise the frame is rejected, INVALID or as truncated (project-defined)

    Scenario: Two NAMEs fill the PATH exactly
      Given a PATH frame with NAME children "sensor" and "temp"
      When it is received as a datagram
      Then it is accepted
      And there are 3 frames

    Scenario Outline: <case>
      Given the bytes "<bytes>"
      When it is received <how>
      Then it is rejected by rule LT-NEST-05 with code "INVALID", or "<truncation>" in another check order

      Examples:
        | case                                          | bytes                                   | how           | truncation           |
        | a child overruns its parent                   | 06 40 05 00 02 00 02 00 61              | as a datagram | tr::frame::truncated |
        | a child's trailer overruns its parent         | 06 40 05 00 02 10 01 00 61              | as a datagram | tr::frame::truncated |
        | 1 byte left, too few for a header             | 06 40 06 00 02 00 01 00 61 02           | as a datagram | tr::frame::truncated |
        | 3 bytes left, too few for a header            | 06 40 08 00 02 00 01 00 61 02 00 01     | as a datagram | tr::frame::truncated |
        | LL=1: 5 bytes left, too few for its header    | 06 40 0a 00 02 00 01 00 61 02 08 01 00 00 | as a datagram | tr::frame::truncated |
        | a child overruns its parent, on a stream      | 06 40 05 00 02 00 02 00 61              | on a stream   | tr::transport::down  |

    Scenario: A child cut by its parent is rejected even when the bytes after the parent would complete it
      Given the bytes "06 40 05 00 02 00 02 00 61 62"
      When it is received as a datagram
      Then it is rejected by rule LT-NEST-05 with code "INVALID", or "tr::frame::truncated" in another check order

  Rule: LT-NEST-06 A PL=1 TLV with an empty payload is valid and has zero children (project-defined)

    @reading:LT-READ-02=empty-structured-invalid
    Scenario: Under reading empty-structured-invalid, a structured TLV needs a child
      Given the bytes "06 40 00 00"
      When it is received as a datagram
      Then it is rejected with code "INVALID"

    @reading:LT-READ-02
    Scenario: The PATH of the root
      Given the bytes "06 40 00 00"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | children |
        | 0     | 06   | 40  | 0      |         | 0        |

    @reading:LT-READ-02
    Scenario: An empty structured TLV with a CRC-32C, and nested in another
      Given a PATH frame with no children and an outer CRC-32C
      And the bytes "80 40 04 00 06 40 00 00"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | children | crc              |
        | 0     | 0      | 06   | 50  | 0      | 0        | CRC-32C 00000000 |
        | 0     | 8      | 80   | 40  | 4      | 1        |                  |
        | 1     | 12     | 06   | 40  | 0      | 0        |                  |

    @reading:LT-READ-02
    Scenario: Encoded again, byte for byte
      Given the bytes "80 40 04 00 06 40 00 00"
      When it is received as a datagram
      And the tree is encoded exactly
      Then the bytes are the bytes received
