@libtracer
Feature: libtracer timestamp trailer
  libtracer-01, §Timestamp form. With opt.TS=1 a trailer_ts follows the
  payload: an absolute u64 of ns since the Unix epoch (TF=0), or a signed
  i32 offset in ns from the parent's stamp (TF=1). The parent is the
  wrapping structured TLV's trailer_ts, else the next outermost ancestor's
  that has one; a relative stamp with no such ancestor is
  ERROR{tr::path::invalid}.

  The frame tables give each frame's depth, type, opt (hex) and payload;
  the ts column gives its stamp: T0 (1777766400000000000 ns,
  2026-05-03T00:00:00Z), T0+N, or a decimal u64 for an absolute stamp,
  +N or -N for a relative one. The steps write the frames with those
  stamps; resolved is the absolute wire-time the receiver reports.

  Rule: LT-TS-01 An absolute stamp is the u64 ns since the Unix epoch, self-contained; it wraps in 2554

    Scenario: A top-level absolute stamp needs no context
      Given the bytes "01 20 01 00 aa T0"
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 1 is "T0"

    Scenario: The largest stamp (in the year 2554) is a valid wire-time
      Given the bytes "01 20 01 00 aa ff ff ff ff ff ff ff ff"
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 1 is "18446744073709551615"

    Scenario: An absolute stamp inside a stamped record is its own time, not an offset
      Given the frames:
        | depth | type | opt | payload | ts       |
        | 0     | 80   | 60  |         | T0       |
        | 1     | 01   | 20  | aa      | 77777    |
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 2 is "77777"

  Rule: LT-TS-08 The spec constrains no absolute stamp value: every u64, 0, 2^63 and 2^64-1 included, is accepted and reported as sent (project-defined)

    Scenario Outline: The absolute stamp <value> is a valid wire-time
      Given the bytes "01 20 01 00 aa <bytes>"
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 1 is "<value>"

      Examples:
        | value                | bytes                   |
        | 0                    | 00 00 00 00 00 00 00 00 |
        | 9223372036854775807  | ff ff ff ff ff ff ff 7f |
        | 9223372036854775808  | 00 00 00 00 00 00 00 80 |
        | 18446744073709551615 | ff ff ff ff ff ff ff ff |

    Scenario: A stamp at or above 2^63 under a CRC is checked like any other
      Given the frame "01 30 01 00 aa 01 00 00 00 00 00 00 80" with a CRC-32C trailer
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 1 is "9223372036854775809"

  Rule: LT-TS-02 A relative stamp is a signed i32 ns offset; the TLV's wire-time is its parent's plus the offset

    Scenario Outline: An offset of <offset> ns
      Given the frames:
        | depth | type | opt | payload | ts       |
        | 0     | 80   | 60  |         | T0       |
        | 1     | 01   | 22  | aa      | <offset> |
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | children | ts           | resolved   |
        | 0     | 80   | 60  | 9      |         | 1        | abs T0       | T0         |
        | 1     | 01   | 22  | 1      | aa      |          | rel <offset> | <resolved> |

      Examples:
        | offset      | resolved      |
        | +0          | T0            |
        | +1          | T0+1          |
        | -1          | T0-1          |
        | +2147483647 | T0+2147483647 |
        | -2147483648 | T0-2147483648 |

    Scenario: The offset's four bytes are little-endian and signed: "00 00 00 80" is -2147483648
      Given the bytes "80 60 09 00 01 22 01 00 aa 00 00 00 80 T0"
      When it is received as a datagram
      Then the resolved time of frame 2 is "T0-2147483648"

  Rule: LT-TS-03 The parent of a relative stamp is the wrapping TLV's trailer_ts, else the next outermost ancestor's that has one

    Scenario: The wrapping structured TLV carries the anchor
      Given the frames:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 60  |         | T0 |
        | 1     | 01   | 22  | aa      | +5 |
      When it is received as a datagram
      Then the resolved time of frame 2 is "T0+5"

    Scenario: The parent has no stamp: the grandparent's anchors
      Given the frames:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 60  |         | T0 |
        | 1     | 80   | 40  |         |    |
        | 2     | 01   | 22  | aa      | +5 |
      When it is received as a datagram
      Then the frame tree is:
        | depth | type | opt | children | payload | ts     | resolved |
        | 0     | 80   | 60  | 1        |         | abs T0 | T0       |
        | 1     | 80   | 40  | 1        |         |        |          |
        | 2     | 01   | 22  |          | aa      | rel +5 | T0+5     |

    Scenario: The anchor three levels up
      Given the frames:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 60  |         | T0 |
        | 1     | 80   | 40  |         |    |
        | 2     | 06   | 40  |         |    |
        | 3     | 02   | 22  | 61      | +5 |
      When it is received as a datagram
      Then the resolved time of frame 4 is "T0+5"

    Scenario: The nearest stamped ancestor wins over an outer one
      Given the frames:
        | depth | type | opt | payload | ts      |
        | 0     | 80   | 60  |         | T0      |
        | 1     | 80   | 60  |         | T0+1000 |
        | 2     | 01   | 22  | aa      | +5      |
      When it is received as a datagram
      Then the resolved time of frame 3 is "T0+1005"

    Scenario: A relatively stamped parent anchors its children at its own resolved time
      Given the frames:
        | depth | type | opt | payload | ts    |
        | 0     | 80   | 60  |         | T0    |
        | 1     | 80   | 62  |         | +1000 |
        | 2     | 01   | 22  | aa      | +5    |
      When it is received as a datagram
      Then the frame tree is:
        | depth | type | opt | payload | children | ts        | resolved |
        | 0     | 80   | 60  |         | 1        | abs T0    | T0       |
        | 1     | 80   | 62  |         | 1        | rel +1000 | T0+1000  |
        | 2     | 01   | 22  | aa      |          | rel +5    | T0+1005  |

    Scenario: A stamped sibling is not the parent: the record's stamp anchors
      Given the frames:
        | depth | type | opt | payload | ts     |
        | 0     | 80   | 60  |         | T0     |
        | 1     | 01   | 20  | aa      | T0+500 |
        | 1     | 01   | 22  | bb      | +5     |
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 2 is "T0+500"
      And the resolved time of frame 3 is "T0+5"

  Rule: LT-TS-04 A relative stamp whose ancestor chain has no trailer_ts is rejected with tr::path::invalid

    @reading:LT-READ-22
    Scenario: A relative stamp on a top-level TLV
      Given the bytes "01 22 01 00 aa 05 00 00 00"
      When it is received as a datagram
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"

    Scenario: No ancestor has a stamp
      Given the frames:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 40  |         |    |
        | 1     | 80   | 40  |         |    |
        | 2     | 01   | 22  | aa      | +5 |
      When it is received as a datagram
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"

    Scenario: A stamped sibling does not anchor a relative stamp
      Given the frames:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 40  |         |    |
        | 1     | 01   | 20  | aa      | T0 |
        | 1     | 01   | 22  | bb      | +5 |
      When it is received as a datagram
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"

    @reading:LT-READ-22
    Scenario: A stamped child does not anchor its parent's relative stamp
      Given the frames:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 62  |         | +5 |
        | 1     | 01   | 20  | aa      | T0 |
      When it is received as a datagram
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"

    @reading:LT-READ-22
    Scenario: On a stream as well
      Given the bytes "01 22 01 00 aa 05 00 00 00"
      When it is received on a stream
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"

    @reading:LT-READ-22=accepted-as-shown
    Scenario: Under reading accepted-as-shown, the worked example's 12 bytes stand alone
      Given the bytes "01 22 04 00 2a 00 00 00 e8 03 00 00"
      When it is received as a datagram
      Then it is accepted
      And there are 1 frames

    @reading:LT-READ-22=accepted-as-shown
    Scenario: Under reading accepted-as-shown, a nested stamp without an anchor is still rejected
      Given the frames:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 40  |         |    |
        | 1     | 01   | 22  | aa      | +5 |
      When it is received as a datagram
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"

    Scenario: An exact encoder refuses a relative stamp without a stamped ancestor
      Given the frame tree to encode:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 40  |         |    |
        | 1     | 01   | 22  | aa      | +5 |
      When the tree is encoded exactly
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"

  Rule: LT-TS-05 Worked example (1 GS/s ADC): an absolutely stamped record of 12-byte VALUE samples with relative stamps +0, +1, +2 ns

    Scenario: Three samples at T0, T0+1 ns and T0+2 ns, each three aligned 4-byte chunks
      Given the bytes "80 60 24 00 01 22 04 00 64 00 00 00 00 00 00 00 01 22 04 00 65 00 00 00 01 00 00 00 01 22 04 00 66 00 00 00 02 00 00 00 T0"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload  | children | ts     | resolved |
        | 0     | 0      | 80   | 60  | 36     |          | 3        | abs T0 | T0       |
        | 1     | 4      | 01   | 22  | 4      | 64000000 |          | rel +0 | T0       |
        | 1     | 16     | 01   | 22  | 4      | 65000000 |          | rel +1 | T0+1     |
        | 1     | 28     | 01   | 22  | 4      | 66000000 |          | rel +2 | T0+2     |
      And frame 2 takes 12 bytes with an overhead of 8 bytes
      And frame 4 takes 12 bytes with an overhead of 8 bytes

  Rule: LT-TS-07 Resolved wire-times are computed modulo 2^64 (decision: docs/libtracer.md)

    @reading:LT-READ-15
    Scenario: A relative stamp past the largest wire-time wraps around
      Given the frames:
        | depth | type | opt | payload | ts                   |
        | 0     | 80   | 60  |         | 18446744073709551615 |
        | 1     | 01   | 22  | aa      | +1                   |
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 2 is "0"

    @reading:LT-READ-15
    Scenario: A relative stamp before the epoch wraps around
      Given the frames:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 60  |         | 0  |
        | 1     | 01   | 22  | aa      | -1 |
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 2 is "18446744073709551615"

    @reading:LT-READ-15=saturate
    Scenario: Under reading saturate, wire-times are clamped at both ends of the u64 range
      Given the frames:
        | depth | type | opt | payload | ts                   |
        | 0     | 80   | 60  |         | 18446744073709551615 |
        | 1     | 01   | 22  | aa      | +1                   |
        | 0     | 80   | 60  |         | 0                    |
        | 1     | 01   | 22  | bb      | -1                   |
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 2 is "18446744073709551615"
      And the resolved time of frame 4 is "0"

  Rule: LT-TS-06 The trailer_ts is transport time; an application-domain time belongs inside the payload

    Scenario: A record's acquisition time travels in its payload, its wire-time in its trailer
      Given the frames:
        | depth | type | opt | payload                 | ts |
        | 0     | 80   | 60  |                         | T0 |
        | 1     | 01   | 00  | T0-5000000              |    |
        | 1     | 01   | 22  | 2a 00 00 00             | +7 |
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | payload     | children | ts     | resolved |
        | 0     | 80   | 60  |             | 2        | abs T0 | T0       |
        | 1     | 01   | 00  | T0-5000000  |          |        |          |
        | 1     | 01   | 22  | 2a 00 00 00 |          | rel +7 | T0+7     |

    Scenario: A time inside a payload is no anchor for a relative wire stamp
      Given the frames:
        | depth | type | opt | payload     | ts |
        | 0     | 80   | 40  |             |    |
        | 1     | 01   | 00  | T0          |    |
        | 1     | 01   | 22  | 2a 00 00 00 | +7 |
      When it is received as a datagram
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"
