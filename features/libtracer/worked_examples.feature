@libtracer
Feature: libtracer worked frame examples
  libtracer-01, §Worked frame examples, byte for byte. Where the spec
  leaves bytes open, docs/libtracer.md chooses them: the uint32 payload is
  "2a 00 00 00" (42); every absolute stamp is T0 = 2026-05-03T00:00:00Z =
  1777766400000000000 ns, the 8 bytes "00 00 a0 2d 1f e5 ab 18"; the
  relative stamp is +1000 ns ("e8 03 00 00") inside a user record stamped
  T0 (a relative stamp needs a stamped ancestor); the 102400-byte payload
  has byte i = i mod 251. Every CRC was computed from the spec's
  parameters by a bit-by-bit CRC independent of the reference.

  Each example is received, checked field by field, and encoded again
  exactly, which must give the same bytes.

  Rule: LT-EX-01 Empty STATUS=OK is the 4 bytes 09 00 00 00

    Scenario: The minimum frame
      Given the bytes "09 00 00 00"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload | ts | crc |
        | 0     | 0      | 09   | 00  | 0      | (empty) |    |     |
      And frame 1 takes 4 bytes with an overhead of 4 bytes
      When the tree is encoded exactly
      Then the bytes are "09 00 00 00"

  Rule: LT-EX-02 A VALUE true without trailer is the 5 bytes 01 00 01 00 01

    Scenario: A single boolean
      Given the bytes "01 00 01 00 01"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | ts | crc |
        | 0     | 01   | 00  | 1      | 01      |    |     |
      And frame 1 takes 5 bytes with an overhead of 4 bytes
      When the tree is encoded exactly
      Then the bytes are "01 00 01 00 01"

  Rule: LT-EX-03 A VALUE uint32 with a relative TS is 12 bytes: 01 22 04 00, 4 payload bytes, the i32 trailer_ts

    Scenario: Three 4-byte chunks, inside the record that anchors the stamp
      Given the bytes "80 60 0c 00 01 22 04 00 2a 00 00 00 e8 03 00 00 T0"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload  | children | ts        | resolved |
        | 0     | 0      | 80   | 60  | 12     |          | 1        | abs T0    | T0       |
        | 1     | 4      | 01   | 22  | 4      | 2a000000 |          | rel +1000 | T0+1000  |
      And frame 2 takes 12 bytes with an overhead of 8 bytes
      When the tree is encoded exactly
      Then the bytes are the bytes received

    Scenario: An encoder writes it from the tree
      Given the frame tree to encode:
        | depth | type | opt | payload     | ts    |
        | 0     | 80   | 60  |             | T0    |
        | 1     | 01   | 22  | 2a 00 00 00 | +1000 |
      When the tree is encoded exactly
      Then the bytes are "80 60 0c 00 01 22 04 00 2a 00 00 00 e8 03 00 00 T0"

  Rule: LT-EX-04 A VALUE uint32 with an absolute TS and CRC-32C is 20 bytes: 01 30 04 00, payload, u64 stamp, CRC

    Scenario: Five 4-byte chunks; the CRC covers payload and stamp
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload  | ts     | resolved | crc              |
        | 0     | 01   | 30  | 4      | 2a000000 | abs T0 | T0       | CRC-32C 4d50096a |
      And frame 1 takes 20 bytes with an overhead of 16 bytes
      When the tree is encoded exactly
      Then the bytes are "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"

  Rule: LT-EX-05 A 5-byte VALUE with CRC-32C is 13 bytes: 01 10 05 00 AA BB CC DD EE and the CRC-32C of the payload

    Scenario: The 5-byte VALUE
      Given the bytes "01 10 05 00 aa bb cc dd ee b6 c9 12 23"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload    | crc              |
        | 0     | 01   | 10  | 5      | aabbccddee | CRC-32C 2312c9b6 |
      And frame 1 takes 13 bytes with an overhead of 8 bytes
      When the tree is encoded exactly
      Then the bytes are "01 10 05 00 aa bb cc dd ee b6 c9 12 23"

    Scenario: The steps' CRC-32C gives the same frame
      Given the frame "01 10 05 00 AA BB CC DD EE" with a CRC-32C trailer
      When it is received as a datagram
      And the tree is encoded exactly
      Then the bytes are "01 10 05 00 aa bb cc dd ee b6 c9 12 23"

  Rule: LT-EX-06 PATH /sensor/temp with outer CRC-32C is 26 bytes: 06 50 12 00, two NAMEs, the CRC of the 18 child bytes

    Scenario: The PATH and its two NAME children
      Given the bytes "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload      | children | crc              |
        | 0     | 0      | 06   | 50  | 18     |              | 2        | CRC-32C 47ab70f3 |
        | 1     | 4      | 02   | 00  | 6      | 73656e736f72 |          |                  |
        | 1     | 14     | 02   | 00  | 4      | 74656d70     |          |                  |
      And frame 1 takes 26 bytes with an overhead of 8 bytes
      And frame 2 takes 10 bytes
      And frame 3 takes 8 bytes
      When the tree is encoded exactly
      Then the bytes are the bytes received

    Scenario: Built by the steps from the names, encoded by the testee
      Given a PATH frame with NAME children "sensor" and "temp" and an outer CRC-32C
      When it is received as a datagram
      And the tree is encoded exactly
      Then the bytes are "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47"

  Rule: LT-EX-07 A VALUE of 102400 bytes with CRC-32C uses LL=1: 01 18 00 90 01 00, the payload, the CRC; 102410 bytes

    Scenario: The extended-length frame
      Given the bytes "01 18 00 90 01 00 [102400 bytes i mod 251] 17 da 57 79"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload                  | crc              |
        | 0     | 01   | 18  | 102400 | [102400 bytes i mod 251] | CRC-32C 7957da17 |
      And frame 1 takes 102410 bytes with an overhead of 10 bytes
      When the tree is encoded exactly
      Then the bytes are "01 18 00 90 01 00 [102400 bytes i mod 251] 17 da 57 79"
