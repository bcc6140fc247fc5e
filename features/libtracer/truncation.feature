@libtracer
Feature: libtracer truncation handling
  libtracer-01, §Truncation handling. Bytes that end before the frame does
  are a stream-level error: a stream transport waits for more and reports
  ERROR{tr::transport::down} when it closes; a datagram transport reports
  ERROR{tr::frame::truncated}. The length is validated against the bytes
  present before any payload byte is read, and a length above MAX_TLV_BYTES
  (a receiver option, 16 MiB recommended) is INVALID without allocating
  the segment.

  "Received with MAX_TLV_BYTES N" passes the receiver's MAX_TLV_BYTES.
  Byte strings are hex; T0 stands for the 8 bytes of the wire-time
  1777766400000000000 ns.

  @should
  Rule: LT-TRUNC-01 A stream transport waits for more bytes while a frame is incomplete

    @reading:LT-READ-17
    Scenario: A frame cut short on a stream is reported as the stream going down, not as a truncated datagram
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      And the input is cut after 10 bytes
      When it is received on a stream
      Then it is rejected with code "tr::transport::down"

    Scenario: A frame larger than any single read arrives whole
      Given the frame "01 18 00 90 01 00 [102400 bytes i mod 251]" with a CRC-32C trailer
      When it is received on a stream
      Then it is accepted
      And frame 1 takes 102410 bytes with an overhead of 10 bytes

  Rule: LT-TRUNC-02 A stream that closes inside a frame reports tr::transport::down (project-defined)

    @reading:LT-READ-17=down-recommended
    Scenario: Under reading down-recommended, a stream closed inside a frame is reported as for a datagram
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      And the input is cut after 6 bytes
      When it is received on a stream
      Then it is rejected by rule LT-TRUNC-02 with code "tr::frame::truncated"

    @reading:LT-READ-17
    Scenario Outline: The stream closes after <cut> of the 20 bytes (<where>)
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      And the input is cut after <cut> bytes
      When it is received on a stream
      Then it is rejected by rule LT-TRUNC-02 with code "tr::transport::down"

      Examples:
        | cut | where          |
        | 1   | in the header  |
        | 3   | in the length  |
        | 6   | in the payload |
        | 12  | in the stamp   |
        | 19  | in the CRC     |

    @reading:LT-READ-17
    Scenario: The stream closes inside a nested child
      Given a PATH frame with NAME children "sensor" and "temp" and an outer CRC-32C
      And the input is cut after 15 bytes
      When it is received on a stream
      Then it is rejected by rule LT-TRUNC-02 with code "tr::transport::down"

    @reading:LT-READ-17
    Scenario: The stream closes inside the second frame
      Given the bytes "09 00 00 00 01 00 03 00 aa"
      When it is received on a stream
      Then it is rejected by rule LT-TRUNC-02 with code "tr::transport::down"

  Rule: LT-TRUNC-03 On a datagram transport, bytes that end before the frame does are tr::frame::truncated

    Scenario Outline: The datagram ends after <cut> of the 20 bytes (<where>)
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      And the input is cut after <cut> bytes
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

      Examples:
        | cut | where          |
        | 1   | in the header  |
        | 3   | in the length  |
        | 6   | in the payload |
        | 12  | in the stamp   |
        | 19  | in the CRC     |

    Scenario: The datagram ends inside the LL=1 length
      Given the bytes "01 08 05 00 00"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

    Scenario: The datagram ends inside a nested child: the top-level frame is the one truncated
      Given a PATH frame with NAME children "sensor" and "temp" and an outer CRC-32C
      And the input is cut after 15 bytes
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

  Rule: LT-TRUNC-04 Truncation never causes a buffer overrun

    @reading:LT-READ-17
    Scenario Outline: A length far beyond the bytes present: <case>
      Given the bytes "<bytes>"
      When it is received <how>
      Then it is rejected with code "<code>"

      Examples:
        | case                           | bytes                   | how           | code                 |
        | u16 length 65535, 1 byte       | 01 00 ff ff aa          | as a datagram | tr::frame::truncated |
        | u32 length 16777215, 1 byte    | 01 08 ff ff ff 00 aa    | as a datagram | tr::frame::truncated |
        | u16 length 65535, 1 byte       | 01 00 ff ff aa          | on a stream   | tr::transport::down  |
        | u32 length 16777215, 1 byte    | 01 08 ff ff ff 00 aa    | on a stream   | tr::transport::down  |
        | child length 65535 in 6 bytes  | 06 40 06 00 02 00 ff ff aa bb | as a datagram | INVALID        |

    Scenario: Per-frame reports stop at the truncated frame instead of reading past the end
      Given the bytes "09 00 00 00 01 00 ff ff aa"
      When it is received with per-frame reports
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

  Rule: LT-TRUNC-05 The length is validated against the available bytes before any payload byte is read

    Scenario: The present bytes of a truncated structured payload are not parsed as children
      Given the bytes "80 40 08 00 00 00 00 00"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

    Scenario: A truncated frame is reported as truncated, not as a CRC failure over what is there
      Given the bytes "01 10 05 00 aa bb"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

    Scenario: A child's length is checked against its parent's payload before the child's payload is read
      Given the bytes "06 40 08 00 06 40 05 00 00 00 00 00"
      When it is received as a datagram
      Then it is rejected by rule LT-NEST-05 with code "INVALID"

  Rule: LT-TRUNC-06 A length above MAX_TLV_BYTES is INVALID, rejected without allocating the segment

    Scenario Outline: MAX_TLV_BYTES 1024, a payload of <length> bytes: <verdict>
      Given the bytes "01 08 <le> [<length> bytes i mod 251]"
      When it is received with MAX_TLV_BYTES 1024
      Then it is <verdict>

      Examples:
        | length | le          | verdict                                          |
        | 1023   | ff 03 00 00 | accepted                                         |
        | 1024   | 00 04 00 00 | accepted                                         |
        | 1025   | 01 04 00 00 | rejected by rule LT-TRUNC-06 with code "INVALID" |

    Scenario: Above MAX_TLV_BYTES with only the header present: INVALID, not truncated
      Given the bytes "01 08 01 04 00 00"
      When it is received with MAX_TLV_BYTES 1024
      Then it is rejected by rule LT-TRUNC-06 with code "INVALID"

    Scenario: A child whose length is above MAX_TLV_BYTES, checked at its header
      Given the bytes "80 40 06 00 01 08 d0 07 00 00"
      When it is received with MAX_TLV_BYTES 1024
      Then it is rejected by rule LT-TRUNC-06 with code "INVALID"

    Scenario: The default 16 MiB + 1 with a 6-byte header and nothing else: rejected, by the limit or by the missing bytes
      Given the bytes "01 08 01 00 00 01"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-06 with code "INVALID", or "tr::frame::truncated" in another check order

    Scenario: On a stream, the header alone is enough to reject, or the stream's close
      Given the bytes "01 08 01 00 00 01"
      When it is received on a stream
      Then it is rejected by rule LT-TRUNC-06 with code "INVALID", or "tr::transport::down" in another check order

    Scenario: The largest u32 length against the default
      Given the bytes "01 08 ff ff ff ff"
      When it is received on a stream
      Then it is rejected by rule LT-TRUNC-06 with code "INVALID", or "tr::transport::down" in another check order

  @should
  Rule: LT-TRUNC-07 MAX_TLV_BYTES is a receiver option and SHOULD default to 16 MiB (16777216)

    Scenario: A header for exactly 16 MiB passes the default limit: the frame is merely cut short
      Given the bytes "01 08 00 00 00 01"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

    Scenario: A header for 16 MiB + 1 does not
      Given the bytes "01 08 01 00 00 01"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-06 with code "INVALID", or "tr::frame::truncated" in another check order

    Scenario: A receiver with a larger MAX_TLV_BYTES takes 16 MiB + 1
      Given the bytes "01 08 01 00 00 01"
      When it is received with MAX_TLV_BYTES 33554432
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

  Rule: LT-TRUNC-08 An empty datagram carries no frame and is tr::frame::truncated (decision: docs/libtracer.md)

    @reading:LT-READ-01
    Scenario: An empty datagram
      Given the bytes ""
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-08 with code "tr::frame::truncated"

    @reading:LT-READ-01=empty-datagram-no-frames
    Scenario: Under reading empty-datagram-no-frames, an empty datagram holds no frame
      Given the bytes ""
      When it is received as a datagram
      Then it is accepted
      And there are 0 frames

  Rule: LT-TRUNC-09 A stream that closes before its first byte, or between frames, ends cleanly (decision: docs/libtracer.md)

    Scenario: An empty stream
      Given the bytes ""
      When it is received on a stream
      Then it is accepted
      And there are 0 frames

    Scenario: A stream that closes between frames ends cleanly
      Given the bytes "09 00 00 00 09 00 00 00"
      When it is received on a stream
      Then it is accepted
      And there are 2 frames
