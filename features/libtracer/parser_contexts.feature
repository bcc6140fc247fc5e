@libtracer
Feature: libtracer parser contexts
  libtracer-01, §Two parser contexts. The same iterative walk serves a
  single contiguous transport buffer (the cursor advances by each child's
  size) and an in-memory rope of views, where one TLV's bytes may lie in
  several views; both give the same result for every input (docs/DECISIONS.md).
  Through the testee protocol the ways in are a datagram (one buffer), a
  datagram "cut into views at" given offsets (the rope: the decode
  argument views) and a stream (bytes that arrive in pieces); the
  reference also checks its rope against its buffer for every cut of its
  test inputs (impl/libtracer, TestRopeAgreesWithBuffer).

  What a datagram or a stream holds, where the spec is silent
  (docs/libtracer.md): top-level TLVs back to back, each an outer addressed
  TLV. Byte strings are hex; T0 stands for the 8 bytes of the wire-time
  1777766400000000000 ns; "[N bytes i mod M]" for N bytes, byte i being i
  mod M.

  Rule: LT-CTX-01 The wire-receive context parses one contiguous buffer, advancing offset += child_size

    Scenario: Each child starts where the previous one's trailer ends
      Given the frames:
        | depth | type | opt | payload           | ts |
        | 0     | 06   | 40  |                   |    |
        | 1     | 02   | 10  | 73 65 6e 73 6f 72 |    |
        | 1     | 02   | 34  | 74 65 6d 70       | T0 |
        | 1     | 02   | 00  | 78                |    |
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | children |
        | 0     | 0      | 06   | 40  | 37     | 3        |
        | 1     | 4      | 02   | 10  | 6      |          |
        | 1     | 18     | 02   | 34  | 4      |          |
        | 1     | 36     | 02   | 00  | 1      |          |

    Scenario: Top-level frames follow one another the same way
      Given the bytes "01 10 05 00 aa bb cc dd ee b6 c9 12 23"
      And the bytes "09 00 00 00"
      And the bytes "01 22 00 00 00 00 00 00"
      And it is wrapped in a user record stamped T0
      When it is received as a datagram
      Then the frame tree is:
        | depth | offset | type | opt | length |
        | 0     | 0      | 80   | 60  | 25     |
        | 1     | 4      | 01   | 10  | 5      |
        | 1     | 17     | 09   | 00  | 0      |
        | 1     | 21     | 01   | 22  | 0      |

  Rule: LT-CTX-02 The in-memory walk parses TLVs whose bytes, payload included, lie in several pieces

    Scenario: A record whose children span the stream's reads is parsed as the contiguous buffer is
      Given the frames:
        | depth | type | opt | payload                 | ts |
        | 0     | 80   | 78  |                         | T0 |
        | 1     | 01   | 08  | [40000 bytes i mod 251] |    |
        | 1     | 01   | 3a  | [40000 bytes i mod 13]  | +9 |
        | 1     | 01   | 0c  | [40000 bytes i mod 7]   |    |
      When it is received both as a datagram and on a stream
      Then both transports give the same result
      And it is accepted
      And there are 4 frames
      And the resolved time of frame 3 is "T0+9"

    Scenario: A datagram cut into views inside headers, payloads and the CRC is walked as one buffer
      Given the bytes "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47"
      When it is received as a datagram cut into views at 2, 6, 10, 16, 20, 24
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | children | payload      |
        | 0     | 0      | 06   | 50  | 18     | 2        |              |
        | 1     | 4      | 02   | 00  | 6      |          | 73656e736f72 |
        | 1     | 14     | 02   | 00  | 4      |          | 74656d70     |

  Rule: LT-CTX-03 Both contexts give the same result for every input (project-defined)

    Scenario: Empty views and a CRC across views change nothing
      Given the bytes "01 10 05 00 aa bb cc dd ee b6 c9 12 24"
      When it is received as a datagram cut into views at 0, 0, 6, 6, 11, 13
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    @reading:LT-READ-23
    Scenario Outline: <case>: datagram and stream agree
      Given the bytes "<bytes>"
      When it is received both as a datagram and on a stream
      Then both transports give the same result

      Examples:
        | case                 | bytes                                                                                  |
        | PATH /sensor/temp    | 06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47         |
        | ADC record           | 80 60 18 00 01 22 04 00 64 00 00 00 00 00 00 00 01 22 04 00 65 00 00 00 01 00 00 00 T0 |
        | three frames         | 09 00 00 00 01 00 01 00 01 06 40 00 00                                                 |
        | CRC failure          | 01 10 05 00 aa bb cc dd ee b6 c9 12 24                                                 |
        | INVALID child        | 06 40 05 00 02 00 02 00 61                                                             |
        | reserved bit         | 01 01 00 00                                                                            |
        | unknown outer type   | 0e 00 00 00                                                                            |
        | no anchor            | 01 22 00 00 05 00 00 00                                                                |
        | bad nested CRC-16    | 06 40 07 00 02 14 01 00 61 00 00                                                       |

    Scenario: They agree under a budget as well
      Given 12 nested user frames around "09 00 00 00"
      When it is received both as a datagram and on a stream with a work budget of 11
      Then both transports give the same result
      And it is rejected by rule LT-NEST-03 with code "tr::tlv::nesting_too_deep"

    @reading:LT-READ-23
    @reading:LT-READ-08
    Scenario: They agree with per-frame reports
      Given the bytes "0e 00 00 00 09 00 00 00 01 10 00 00 00 00 00 01 09 00 00 00"
      When it is received both as a datagram and on a stream with per-frame reports
      Then both transports give the same result
      And the frame tree is:
        | depth | offset | type | error                               |
        | 0     | 0      | 0e   | LT-UNK-05 tr::schema::type_mismatch |
        | 0     | 4      | 09   |                                     |
        | 0     | 8      | 01   | LT-CRC-09 tr::frame::crc_fail       |
        | 0     | 16     | 09   |                                     |

  Rule: LT-CTX-04 A datagram or stream holds back-to-back top-level TLVs; an error inside one is its own, a framing error stops the parse (project-defined)

    @reading:LT-READ-23=one-per-datagram
    Scenario: Under reading one-per-datagram, a second TLV in a datagram is INVALID
      Given the bytes "09 00 00 00"
      And the bytes "01 00 01 00 01"
      When it is received as a datagram
      Then it is rejected by rule LT-CTX-04 with code "INVALID"

    @reading:LT-READ-23=one-per-datagram
    Scenario: Under reading one-per-datagram, a stream still holds TLVs back to back
      Given the bytes "09 00 00 00"
      And the bytes "01 00 01 00 01"
      When it is received on a stream
      Then it is accepted
      And there are 2 top-level frames

    @reading:LT-READ-23
    Scenario: Three top-level TLVs in one datagram
      Given the bytes "09 00 00 00"
      And the bytes "01 00 01 00 01"
      And a PATH frame with NAME children "a" and "b"
      When it is received as a datagram
      Then it is accepted
      And there are 3 top-level frames

    @reading:LT-READ-08=stop-at-first-error
    Scenario: Under reading stop-at-first-error, a CRC failure ends the parse
      Given the frame "01 10 01 00 aa" with a CRC-32C trailer
      And the byte at offset 4 is corrupted
      And a PATH frame with NAME children "a" and "b"
      When it is received with per-frame reports
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    @reading:LT-READ-23
    @reading:LT-READ-08
    Scenario: A CRC failure is the failing frame's own; the frames after it are parsed
      Given the frame "01 10 01 00 aa" with a CRC-32C trailer
      And the byte at offset 4 is corrupted
      And a PATH frame with NAME children "a" and "b"
      When it is received with per-frame reports
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | error                         | children |
        | 0     | 0      | 01   | LT-CRC-09 tr::frame::crc_fail |          |
        | 0     | 9      | 06   |                               | 2        |
        | 1     | 13     | 02   |                               |          |
        | 1     | 18     | 02   |                               |          |

    @reading:LT-READ-23
    @reading:LT-READ-08
    Scenario: An INVALID child is its top-level frame's error; the frames after it are parsed
      Given the bytes "06 40 05 00 02 80 01 00 61"
      And the bytes "09 00 00 00"
      When it is received with per-frame reports
      Then it is accepted
      And frame 1 is rejected by rule LT-OPT-01 with code "INVALID"
      And there are 2 top-level frames

    Scenario: An INVALID top-level header breaks framing: the whole input is rejected
      Given the bytes "09 00 00 00"
      And the bytes "01 80 01 00 aa"
      And the bytes "09 00 00 00"
      When it is received with per-frame reports
      Then it is rejected by rule LT-OPT-01 with code "INVALID"

    @reading:LT-READ-23
    Scenario: A truncated last frame breaks framing: the whole input is rejected
      Given the bytes "09 00 00 00"
      And the bytes "01 00 05 00 aa bb"
      When it is received with per-frame reports
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

    Scenario: The verdict is the first error in byte order
      Given the bytes "01 10 05 00 aa bb cc dd ee b6 c9 12 24"
      And the bytes "0e 00 00 00"
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    Scenario: A frame's error comes before a framing error later in the bytes
      Given the bytes "01 14 05 00 aa bb cc dd ee b6 c9"
      And the bytes "09 00"
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail", or "tr::frame::truncated" in another check order
