@libtracer
Feature: libtracer CRC trailer
  libtracer-01, §CRC. With opt.CR=1 a trailer_crc ends the frame: CRC-32C
  (Castagnoli 0x1EDC6F41, reflected 0x82F63B78, init and final XOR
  0xFFFFFFFF) by default, CRC-16-CCITT (0x1021, init 0xFFFF, not
  reflected, final XOR 0) with opt.CW=1. It covers the payload, then the
  trailer_ts if present, never the header. A mismatch is
  ERROR{tr::frame::crc_fail}.

  The steps compute every CRC "with a CRC-32C trailer" or "with a
  CRC-16-CCITT trailer" with their own code from these parameters; "computed
  with ..." changes one parameter to show the receiver checks it. T0 stands
  for the 8 bytes of the wire-time 1777766400000000000 ns.

  Rule: LT-CRC-01 CRC-32C uses the Castagnoli polynomial 0x1EDC6F41, reflected 0x82F63B78

    Scenario: A CRC-32C with the Castagnoli polynomial is accepted
      Given the frame "01 10 05 00 aa bb cc dd ee" with a CRC-32C trailer
      When it is received as a datagram
      Then it is accepted
      And frame 1 has CRC-32C "2312c9b6"

    Scenario Outline: A CRC-32 over another polynomial (<name>) is a CRC failure
      Given the frame "01 10 05 00 aa bb cc dd ee" with a CRC-32C trailer computed with polynomial <poly>
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

      Examples:
        | name              | poly       |
        | IEEE 802.3        | 0x04C11DB7 |
        | Koopman CRC-32K   | 0x741B8CD7 |

    Scenario: The Castagnoli polynomial unreflected is a CRC failure
      Given the frame "01 10 05 00 aa bb cc dd ee" with a CRC-32C trailer computed unreflected
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

  Rule: LT-CRC-02 CRC-32C starts from 0xFFFFFFFF

    Scenario: A CRC-32C started from zero is a CRC failure
      Given the frame "01 10 05 00 aa bb cc dd ee" with a CRC-32C trailer computed with initial value 0x00000000
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    Scenario: Started from zero, the CRC of leading zero bytes would not see them: from 0xFFFFFFFF it does
      Given the frame "01 10 03 00 00 00 00" with a CRC-32C trailer
      When it is received as a datagram
      Then it is accepted
      And frame 1 has CRC-32C "6064a37a"

  Rule: LT-CRC-03 CRC-32C ends with a final XOR of 0xFFFFFFFF

    Scenario: A CRC-32C without the final XOR is a CRC failure
      Given the frame "01 10 05 00 aa bb cc dd ee" with a CRC-32C trailer computed with final XOR 0x00000000
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    Scenario: The CRC-32C of an empty payload is 0: the final XOR undoes the initial value
      Given the bytes "01 10 00 00 00 00 00 00"
      When it is received as a datagram
      Then it is accepted
      And frame 1 has CRC-32C "00000000"

  Rule: LT-CRC-04 CRC-32C of the ASCII bytes "123456789" is 0xE3069283 (project-defined)

    Scenario: The check value, little-endian on the wire
      Given the bytes "01 10 09 00 31 32 33 34 35 36 37 38 39 83 92 06 e3"
      When it is received as a datagram
      Then it is accepted
      And frame 1 has CRC-32C "e3069283"

    Scenario: The check value's last bit flipped is a CRC failure
      Given the bytes "01 10 09 00 31 32 33 34 35 36 37 38 39 83 92 06 e2"
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

  Rule: LT-CRC-05 CRC-16-CCITT uses the polynomial 0x1021, not reflected (project-defined)

    @reading:LT-READ-19
    Scenario: A CRC-16-CCITT is accepted
      Given the frame "01 14 05 00 aa bb cc dd ee" with a CRC-16-CCITT trailer
      When it is received as a datagram
      Then it is accepted
      And frame 1 has CRC-16-CCITT "be05"

    @reading:LT-READ-19
    Scenario: The reflected variant of 0x1021 is a CRC failure
      Given the frame "01 14 05 00 aa bb cc dd ee" with a CRC-16-CCITT trailer computed reflected
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

    @reading:LT-READ-19=reflected
    Scenario: Under reading reflected, the reflected CRC-16 is the one accepted
      Given the frame "01 14 05 00 aa bb cc dd ee" with a CRC-16-CCITT trailer computed reflected
      When it is received as a datagram
      Then it is accepted

    Scenario: The polynomial 0x8005 (CRC-16/IBM) is a CRC failure
      Given the frame "01 14 05 00 aa bb cc dd ee" with a CRC-16-CCITT trailer computed with polynomial 0x8005
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

  Rule: LT-CRC-06 CRC-16-CCITT starts from 0xFFFF

    Scenario Outline: A CRC-16 started from <init> is a CRC failure
      Given the frame "01 14 05 00 aa bb cc dd ee" with a CRC-16-CCITT trailer computed with initial value <init>
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

      Examples:
        | init   |
        | 0x0000 |
        | 0x1D0F |

  Rule: LT-CRC-07 CRC-16-CCITT ends with a final XOR of 0x0000

    Scenario: A CRC-16 with a final XOR of 0xFFFF is a CRC failure
      Given the frame "01 14 05 00 aa bb cc dd ee" with a CRC-16-CCITT trailer computed with final XOR 0xFFFF
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

    Scenario: The CRC-16-CCITT of an empty payload is the initial value 0xFFFF, unchanged
      Given the bytes "01 14 00 00 ff ff"
      When it is received as a datagram
      Then it is accepted
      And frame 1 has CRC-16-CCITT "ffff"

  Rule: LT-CRC-08 CRC-16-CCITT of the ASCII bytes "123456789" is 0x29B1 (project-defined)

    @reading:LT-READ-19
    Scenario: The check value, little-endian on the wire
      Given the bytes "01 14 09 00 31 32 33 34 35 36 37 38 39 b1 29"
      When it is received as a datagram
      Then it is accepted
      And frame 1 has CRC-16-CCITT "29b1"

    Scenario: The check value byte-swapped is a CRC failure
      Given the bytes "01 14 09 00 31 32 33 34 35 36 37 38 39 29 b1"
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

  Rule: LT-CRC-09 A receiver that sees CR=1 and CW=0 verifies the CRC-32C; a mismatch is tr::frame::crc_fail

    Scenario Outline: A corrupted byte at offset <offset> (<field>) is a CRC failure
      Given the frame "01 10 05 00 aa bb cc dd ee" with a CRC-32C trailer
      And the byte at offset <offset> is corrupted
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

      Examples:
        | offset | field            |
        | 4      | first payload    |
        | 8      | last payload     |
        | 9      | first CRC byte   |
        | 12     | last CRC byte    |

    Scenario: A child's CRC-32C is verified too
      Given the frames:
        | depth | type | opt | payload |
        | 0     | 06   | 40  |         |
        | 1     | 02   | 10  | 61      |
      And the byte at offset 9 is corrupted
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    Scenario: A structured frame's own CRC-32C covers its children's bytes
      Given the frames:
        | depth | type | opt | payload |
        | 0     | 06   | 50  |         |
        | 1     | 02   | 00  | 61      |
      And the byte at offset 8 is corrupted
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    Scenario: On a stream as well
      Given the frame "01 10 05 00 aa bb cc dd ee" with a CRC-32C trailer
      And the byte at offset 6 is corrupted
      When it is received on a stream
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

  Rule: LT-CRC-10 A receiver that sees CR=1 and CW=1 verifies the CRC-16-CCITT; a mismatch is tr::frame::crc_fail

    Scenario Outline: A corrupted byte at offset <offset> (<field>) is a CRC failure
      Given the frame "01 14 05 00 aa bb cc dd ee" with a CRC-16-CCITT trailer
      And the byte at offset <offset> is corrupted
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

      Examples:
        | offset | field          |
        | 4      | first payload  |
        | 8      | last payload   |
        | 9      | first CRC byte |
        | 10     | last CRC byte  |

    Scenario: A child's CRC-16-CCITT is verified too
      Given the frames:
        | depth | type | opt | payload |
        | 0     | 06   | 40  |         |
        | 1     | 02   | 14  | 61      |
      And the byte at offset 9 is corrupted
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

    Scenario: A structured frame's own CRC-16-CCITT covers its children's bytes
      Given the frames:
        | depth | type | opt | payload |
        | 0     | 06   | 54  |         |
        | 1     | 02   | 00  | 61      |
      And the byte at offset 8 is corrupted
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

  Rule: LT-CRC-11 The CRC covers the payload bytes, then the trailer_ts bytes if present, in that order

    @reading:LT-READ-19
    Scenario Outline: Payload then stamp, <crc>
      Given the frame "01 <opt> 04 00 2a 00 00 00 T0" with a <crc> trailer
      When it is received as a datagram
      Then it is accepted

      Examples:
        | opt | crc          |
        | 30  | CRC-32C      |
        | 34  | CRC-16-CCITT |

    Scenario Outline: A <crc> over <coverage> is a CRC failure
      Given the frame "01 <opt> 04 00 2a 00 00 00 T0" with a <crc> trailer computed over <coverage>
      When it is received as a datagram
      Then it is rejected by rule <rule> with code "tr::frame::crc_fail"

      Examples:
        | opt | crc          | coverage                      | rule      |
        | 30  | CRC-32C      | the payload only              | LT-CRC-09 |
        | 30  | CRC-32C      | the trailer_ts then the payload | LT-CRC-09 |
        | 34  | CRC-16-CCITT | the payload only              | LT-CRC-10 |
        | 34  | CRC-16-CCITT | the trailer_ts then the payload | LT-CRC-10 |

    Scenario: A relative stamp is covered as well
      Given the frame "01 32 02 00 ca fe e8 03 00 00" with a CRC-32C trailer computed over the payload only
      And it is wrapped in a user record stamped T0
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

  Rule: LT-CRC-12 The header (type, opt, length) is not covered by the CRC

    Scenario: A CRC over header and payload is a CRC failure
      Given the frame "01 10 05 00 aa bb cc dd ee" with a CRC-32C trailer computed over the header and payload
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    Scenario: Frames that differ only in their header carry the same CRC
      Given the bytes "01 10 05 00 aa bb cc dd ee b6 c9 12 23"
      And the bytes "80 18 05 00 00 00 aa bb cc dd ee b6 c9 12 23"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload    | crc              |
        | 0     | 0      | 01   | 10  | 5      | aabbccddee | CRC-32C 2312c9b6 |
        | 0     | 13     | 80   | 18  | 5      | aabbccddee | CRC-32C 2312c9b6 |

  Rule: LT-CRC-13 Described without a keyword: a streaming sender accumulates the CRC over the payload, then folds in the trailer_ts it appends, then appends the CRC (project-defined)

    Scenario: A sender's frame with stamp and CRC-32C: the CRC covers payload and stamp
      Given the frame tree to encode:
        | depth | type | opt | payload     | ts |
        | 0     | 01   | 30  | 2a 00 00 00 | T0 |
      When the tree is encoded exactly
      Then the bytes are "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"

    @reading:LT-READ-19
    Scenario: A sender's frame with stamp and CRC-16-CCITT
      Given the frame tree to encode:
        | depth | type | opt | payload     | ts |
        | 0     | 01   | 34  | 2a 00 00 00 | T0 |
      When the tree is encoded exactly
      Then the bytes are "01 34 04 00 2a 00 00 00 T0 c8 e9"

  Rule: LT-CRC-14 Described without a keyword: a streaming receiver accumulates the CRC over the payload as it arrives, folds in the trailer_ts, then compares (project-defined)

    Scenario: A stamped frame with CRC-32C on a stream
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      When it is received on a stream
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload  | ts     | resolved | crc              |
        | 0     | 01   | 30  | 4      | 2a000000 | abs T0 | T0       | CRC-32C 4d50096a |

    Scenario: A large payload on a stream, its CRC accumulated as it arrives
      Given the frame "01 18 00 90 01 00 [102400 bytes i mod 251]" with a CRC-32C trailer
      When it is received on a stream
      Then it is accepted
      And frame 1 has CRC-32C "7957da17"

    Scenario Outline: A corrupted <field> on a stream is a CRC failure
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      And the byte at offset <offset> is corrupted
      When it is received on a stream
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

      Examples:
        | field        | offset |
        | payload byte | 5      |
        | stamp byte   | 11     |
        | CRC byte     | 17     |

  Rule: LT-CRC-15 Under CR=1 a corrupted trailer_ts shows up as tr::frame::crc_fail, not as a bogus time

    Scenario Outline: A corrupted stamp byte <offset> under <crc>
      Given the frame "01 <opt> 04 00 2a 00 00 00 T0" with a <crc> trailer
      And the byte at offset <offset> is corrupted
      When it is received as a datagram
      Then it is rejected by rule <rule> with code "tr::frame::crc_fail"

      Examples:
        | opt | crc          | offset | rule      |
        | 30  | CRC-32C      | 8      | LT-CRC-09 |
        | 30  | CRC-32C      | 15     | LT-CRC-09 |
        | 34  | CRC-16-CCITT | 8      | LT-CRC-10 |
        | 34  | CRC-16-CCITT | 15     | LT-CRC-10 |

    Scenario: A corrupted relative stamp under CRC-16-CCITT
      Given the frame "01 36 02 00 ca fe e8 03 00 00" with a CRC-16-CCITT trailer
      And the byte at offset 7 is corrupted
      And it is wrapped in a user record stamped T0
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

    Scenario: Without a CRC the same corruption goes unnoticed: a bogus time is all the receiver sees
      Given the bytes "01 20 04 00 2a 00 00 00 T0"
      And the byte at offset 15 is corrupted
      When it is received as a datagram
      Then it is accepted
      And the resolved time of frame 1 is "16693688365851082752"
