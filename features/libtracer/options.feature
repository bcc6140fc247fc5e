@libtracer
Feature: libtracer options bitfield
  libtracer-01, §Options bitfield. The opt byte, bit 7 to bit 0:
  R | PL | TS | CR | LL | CW | TF | R. Bits 7 and 0 are reserved, frozen for
  the lifetime of v1, and a receiver rejects a TLV that sets either as
  INVALID. CW means something only with CR=1, TF only with TS=1.

  Byte strings are hex; T0 stands for the 8 bytes of the wire-time
  1777766400000000000 ns (2026-05-03T00:00:00Z).

  Rule: LT-OPT-01 Bit 7 of opt is reserved: a receiver rejects a TLV that sets it as INVALID

    Scenario Outline: opt <opt> sets bit 7
      Given the bytes "01 <opt> 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-OPT-01 with code "INVALID"

      Examples:
        | opt |
        | 80  |
        | c0  |
        | a0  |
        | 90  |
        | 88  |
        | 84  |
        | 82  |
        | fe  |

    Scenario: Bit 7 set on a child rejects the frame that holds it
      Given the bytes "06 40 05 00 02 80 01 00 61"
      When it is received as a datagram
      Then it is rejected by rule LT-OPT-01 with code "INVALID"

    Scenario: Bit 7 set is rejected on a stream as well, as soon as the opt byte arrives, or when the stream closes inside the header
      Given the bytes "01 80"
      When it is received on a stream
      Then it is rejected by rule LT-OPT-01 with code "INVALID", or "tr::transport::down" in another check order

  Rule: LT-OPT-02 Bit 0 of opt is reserved: a receiver rejects a TLV that sets it as INVALID

    Scenario Outline: opt <opt> sets bit 0
      Given the bytes "01 <opt> 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-OPT-02 with code "INVALID"

      Examples:
        | opt |
        | 01  |
        | 41  |
        | 21  |
        | 11  |
        | 09  |
        | 05  |
        | 03  |
        | 7f  |

    Scenario: Bit 0 set on a child rejects the frame that holds it
      Given the bytes "06 40 05 00 02 01 01 00 61"
      When it is received as a datagram
      Then it is rejected by rule LT-OPT-02 with code "INVALID"

    Scenario: Both reserved bits set: bit 7 is reported, the first checked
      Given the bytes "01 81 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-OPT-01 with code "INVALID"

  Rule: LT-OPT-03 The reserved bits are frozen for v1: no sender sets them (project-defined)

    Scenario Outline: An encoder refuses a frame with opt <opt>
      Given the frame tree to encode:
        | depth | type | opt   | payload |
        | 0     | 01   | <opt> | aa      |
      When the tree is encoded exactly
      Then it is rejected by rule LT-OPT-03

      Examples:
        | opt |
        | 80  |
        | 01  |
        | 81  |

    Scenario: An encoder refuses a reserved bit on a child as well
      Given the frame tree to encode:
        | depth | type | opt | payload |
        | 0     | 06   | 40  |         |
        | 1     | 02   | 01  | 61      |
      When the tree is encoded with the smallest variants
      Then it is rejected by rule LT-OPT-03

    Scenario: The same frame without the reserved bit is encoded
      Given the frame tree to encode:
        | depth | type | opt | payload |
        | 0     | 01   | 00  | aa      |
      When the tree is encoded exactly
      Then the bytes are "01 00 01 00 aa"

  Rule: LT-OPT-04 Bit 6 (PL): 0 means the payload is opaque bytes, 1 that it is concatenated child TLVs

    Scenario: PL=0: bytes that look like a NAME stay payload bytes
      Given the bytes "80 00 05 00 02 00 01 00 61"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload        | children |
        | 0     | 80   | 00  | 5      | 02 00 01 00 61 |          |

    Scenario: PL=1: the same payload is one NAME child
      Given the bytes "80 40 05 00 02 00 01 00 61"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload | children |
        | 0     | 0      | 80   | 40  | 5      |         | 1        |
        | 1     | 4      | 02   | 00  | 1      | 61      |          |

    Scenario: PL=1 over bytes that are not child TLVs is INVALID
      Given the bytes "80 40 02 00 01 02"
      When it is received as a datagram
      Then it is rejected by rule LT-NEST-05 with code "INVALID"

    Scenario: An exact encoder refuses children under PL=0
      Given the frame tree to encode:
        | depth | type | opt | payload |
        | 0     | 80   | 00  |         |
        | 1     | 02   | 00  | 61      |
      When the tree is encoded exactly
      Then it is rejected by rule LT-OPT-04

  Rule: LT-OPT-05 Bit 5 (TS): 1 means the trailer has a timestamp, in the form TF selects

    Scenario: TS=1: a stamp follows the payload
      Given the bytes "01 20 01 00 aa T0"
      When it is received as a datagram
      Then the frame tree is:
        | depth | type | opt | length | payload | ts     | resolved |
        | 0     | 01   | 20  | 1      | aa      | abs T0 | T0       |

    Scenario: TS=1 without the stamp bytes is a truncated frame
      Given the bytes "01 20 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

    Scenario: An encoder refuses TS=1 without a stamp to write
      Given the frame tree to encode:
        | depth | type | opt | payload |
        | 0     | 01   | 20  | aa      |
      When the tree is encoded exactly
      Then it is rejected by rule LT-OPT-05

  Rule: LT-OPT-06 Bit 4 (CR): 1 means the trailer has a CRC, of the width CW selects

    Scenario: CR=1: a CRC follows the payload
      Given the frame "01 10 01 00 aa" with a CRC-32C trailer
      When it is received as a datagram
      Then it is accepted
      And frame 1 takes 9 bytes with an overhead of 8 bytes

    Scenario: CR=1 without the CRC bytes is a truncated frame
      Given the bytes "01 10 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

  Rule: LT-OPT-07 Bit 3 (LL): 0 means a u16 length (the default), 1 a u32 length

    Scenario Outline: LL=<ll>: a <h>-byte header
      Given the bytes "<frame>"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt   | length | payload |
        | 0     | 01   | <opt> | 1      | aa      |
      And frame 1 takes <size> bytes with an overhead of <h> bytes

      Examples:
        | ll | opt | frame             | h | size |
        | 0  | 00  | 01 00 01 00 aa       | 4 | 5    |
        | 1  | 08  | 01 08 01 00 00 00 aa | 6 | 7    |

  Rule: LT-OPT-08 Bit 2 (CW): 0 means CRC-32C in 4 bytes (the default), 1 CRC-16-CCITT in 2 bytes

    Scenario Outline: CR=1, CW=<cw>: a <width>-byte <crc>
      Given the frame "01 <opt> 01 00 aa" with a <crc> trailer
      When it is received as a datagram
      Then it is accepted
      And frame 1 has <crc> "<value>"
      And frame 1 takes <size> bytes

      Examples:
        | cw | opt | crc          | width | value    | size |
        | 0  | 10  | CRC-32C      | 4     | 9bd4cecf | 9    |
        | 1  | 14  | CRC-16-CCITT | 2     | f550     | 7    |

  Rule: LT-OPT-09 CW means something only with CR=1: with CR=0 either value is accepted and ignored (project-defined)

    Scenario: CW=1 with CR=0: no CRC, and the frame is accepted
      Given the bytes "01 04 01 00 aa"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | crc |
        | 0     | 01   | 04  | 1      | aa      |     |

    Scenario: The ignored bit is kept: an exact encoding gives the bytes back
      Given the bytes "01 04 01 00 aa"
      When it is received as a datagram
      And the tree is encoded exactly
      Then the bytes are the bytes received

  Rule: LT-OPT-10 Bit 1 (TF): 0 means an absolute u64 stamp in 8 bytes (the default), 1 a signed i32 offset in 4 bytes

    Scenario: TF=0: an 8-byte absolute stamp
      Given the bytes "01 20 01 00 aa T0+7"
      When it is received as a datagram
      Then the frame tree is:
        | depth | type | opt | length | payload | ts       | resolved |
        | 0     | 01   | 20  | 1      | aa      | abs T0+7 | T0+7     |

    Scenario: TF=1: a 4-byte offset from the parent's stamp
      Given the bytes "80 60 09 00 01 22 01 00 aa 07 00 00 00 T0"
      When it is received as a datagram
      Then the frame tree is:
        | depth | type | opt | length | payload | children | ts     | resolved |
        | 0     | 80   | 60  | 9      |         | 1        | abs T0 | T0       |
        | 1     | 01   | 22  | 1      | aa      |          | rel +7 | T0+7     |

  Rule: LT-OPT-11 TF means something only with TS=1: with TS=0 either value is accepted and ignored (project-defined)

    Scenario: TF=1 with TS=0 at the top level: no stamp, so no anchor is needed
      Given the bytes "01 02 01 00 aa"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | ts |
        | 0     | 01   | 02  | 1      | aa      |    |

    Scenario: The ignored bit is kept: an exact encoding gives the bytes back
      Given the bytes "01 02 01 00 aa"
      When it is received as a datagram
      And the tree is encoded exactly
      Then the bytes are the bytes received

  Rule: LT-OPT-12 Forward-compatible extensions live only in the type-code registry, 0x0E..0x7F: a user type is no extension, and a reserved bit is none either

    Scenario Outline: An unassigned code <type> of the extension range is an unknown type, answered with a type mismatch
      Given the bytes "<type> 00 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-UNK-05 with code "tr::schema::type_mismatch"

      Examples:
        | type |
        | 0e   |
        | 7f   |

    Scenario Outline: A user type <type> is no extension: the outer TLV is accepted
      Given the bytes "<type> 00 01 00 aa"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type   | opt | length | payload |
        | 0     | <type> | 00  | 1      | aa      |

      Examples:
        | type |
        | 80   |
        | ff   |

    Scenario: A reserved bit is no extension to skip: it is INVALID
      Given the bytes "80 01 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-OPT-02 with code "INVALID"
