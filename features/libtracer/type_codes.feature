@libtracer
Feature: libtracer type code registry
  libtracer-01, §Type code registry, §Type byte layering, §Versioning and
  compatibility. 0x00 is the reserved sentinel and INVALID; 0x01..0x1F are
  core types (0x01..0x0D assigned, docs/DECISIONS.md; 0x05 reserved with no
  meaning, never sent); 0x20..0x7F are reserved for future core
  extensions; 0x80..0xFF are user types. Framing never depends on the type.
  There is no version bit.

  Byte strings are hex; T0 stands for the 8 bytes of the wire-time
  1777766400000000000 ns.

  Rule: LT-TYPE-01 Type 0x00 is the reserved sentinel: receivers treat it as INVALID

    Scenario Outline: A frame of type 0x00: <case>
      Given the bytes "<bytes>"
      When it is received <how>
      Then it is rejected by rule LT-TYPE-01 with code "INVALID"

      Examples:
        | case                            | bytes             | how           |
        | a zeroed buffer                 | 00 00 00 00       | as a datagram |
        | the type byte alone             | 00                | as a datagram |
        | otherwise well formed           | 00 00 01 00 aa    | as a datagram |
        | on a stream                     | 00 00 00 00       | on a stream   |
        | as a child                      | 06 40 04 00 00 00 00 00 | as a datagram |

    Scenario: An encoder refuses type 0x00
      Given the frame tree to encode:
        | depth | type | opt | payload |
        | 0     | 00   | 00  | aa      |
      When the tree is encoded exactly
      Then it is rejected by rule LT-TYPE-01

  Rule: LT-TYPE-02 Types 0x01..0x1F are core; 0x01..0x0D (but 0x05) are assigned, and a structured one is walked (project-defined)

    Scenario Outline: A structured core TLV of type <type> is walked
      Given the bytes "<type> 40 05 00 02 00 01 00 61"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type   | opt | length | payload | children |
        | 0     | <type> | 40  | 5      |         | 1        |
        | 1     | 02     | 00  | 1      | 61      |          |

      Examples:
        | type |
        | 01   |
        | 02   |
        | 03   |
        | 04   |
        | 06   |
        | 07   |
        | 08   |
        | 09   |
        | 0a   |
        | 0b   |
        | 0c   |
        | 0d   |

  Rule: LT-TYPE-03 Types 0x0E..0x7F are not assigned in v1: a v1 receiver handles them as unknown types

    @reading:LT-READ-21
    Scenario Outline: Type <type> as the outer TLV is a type mismatch
      Given the bytes "<type> 00 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-UNK-05 with code "tr::schema::type_mismatch"

      Examples:
        | type |
        | 0e   |
        | 0f   |
        | 1f   |
        | 20   |
        | 5a   |
        | 7f   |

    @reading:LT-READ-21
    Scenario Outline: Type <type> nested is kept as opaque bytes, even with PL=1
      Given the bytes "06 40 09 00 <type> 40 05 00 02 00 01 00 61"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type   | opt | length | payload        | children |
        | 0     | 06     | 40  | 9      |                | 1        |
        | 1     | <type> | 40  | 5      | 02 00 01 00 61 |          |

      Examples:
        | type |
        | 0e   |
        | 1f   |
        | 20   |
        | 7f   |

    @reading:LT-READ-21=whole-core-range-known
    Scenario: Under reading whole-core-range-known, 0x0E is a known core type, walked when structured
      Given the bytes "0e 40 05 00 02 00 01 00 61"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | children |
        | 0     | 0e   | 40  | 5      |         | 1        |
        | 1     | 02   | 00  | 1      | 61      |          |

    @reading:LT-READ-21=whole-core-range-known
    Scenario: Under reading whole-core-range-known, 0x20 is still unknown
      Given the bytes "20 00 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-UNK-05 with code "tr::schema::type_mismatch"

  Rule: LT-TYPE-04 Types 0x80..0xFF are user types with no protocol opinion; a structured user TLV is walked

    Scenario Outline: A structured user TLV of type <type> is walked
      Given the bytes "<type> 40 05 00 02 00 01 00 61"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type   | opt | length | payload | children |
        | 0     | <type> | 40  | 5      |         | 1        |
        | 1     | 02     | 00  | 1      | 61      |          |

      Examples:
        | type |
        | 80   |
        | a5   |
        | fe   |
        | ff   |

    Scenario: A user TLV's opaque payload has no protocol meaning
      Given the bytes "c3 00 03 00 00 ff 05"
      When it is received as a datagram
      Then the frame tree is:
        | depth | type | opt | length | payload  |
        | 0     | c3   | 00  | 3      | 00 ff 05 |

  Rule: LT-TYPE-05 Receivers treat type 0x05 as reserved-but-unassigned and apply the rules for unknown types

    Scenario: 0x05 as the outer TLV is a type mismatch
      Given the bytes "05 00 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-UNK-05 with code "tr::schema::type_mismatch"

    Scenario: 0x05 nested is kept as opaque bytes, even with PL=1
      Given the bytes "06 40 09 00 05 40 05 00 02 00 01 00 61"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload        | children |
        | 0     | 06   | 40  | 9      |                | 1        |
        | 1     | 05   | 40  | 5      | 02 00 01 00 61 |          |

    Scenario: A nested 0x05's CRC is checked like any other
      Given the bytes "06 40 0b 00 05 14 05 00 aa bb cc dd ee 00 00"
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

  Rule: LT-TYPE-06 Senders never emit type 0x05

    Scenario Outline: An encoder refuses a 0x05 <where> (<mode>)
      Given the frame tree to encode:
        | depth | type    | opt     | payload   |
        | 0     | <outer> | <opt>   | <payload> |
        | 1     | <inner> | 00      | aa        |
      When the tree is encoded <mode>
      Then it is rejected by rule LT-TYPE-06

      Examples:
        | where     | outer | opt | payload | inner | mode                    |
        | as parent | 05    | 40  |         | 02    | exactly                 |
        | as child  | 06    | 40  |         | 05    | exactly                 |
        | as child  | 80    | 40  |         | 05    | with the smallest variants |

    Scenario: A received frame holding a nested 0x05 is accepted, but not encoded again
      Given the bytes "06 40 05 00 05 00 01 00 aa"
      When it is received as a datagram
      Then it is accepted
      When the tree is encoded exactly
      Then it is rejected by rule LT-TYPE-06

  Rule: LT-TYPE-07 Framing does not depend on the type: length, trailer and CRC are read the same for every type

    @reading:LT-READ-21
    Scenario Outline: A type <type> frame with stamp and CRC-32C, then a STATUS
      Given the frame "<type> 30 02 00 ca fe T0" with a CRC-32C trailer
      And the bytes "09 00 00 00"
      When it is received with per-frame reports
      Then it is accepted
      And the frame tree is:
        | depth | offset | type   | error   |
        | 0     | 0      | <type> | <error> |
        | 0     | 18     | 09     |         |

      Examples:
        | type | error                                |
        | 01   |                                      |
        | 0d   |                                      |
        | 80   |                                      |
        | 05   | LT-UNK-05 tr::schema::type_mismatch  |
        | 0e   | LT-UNK-05 tr::schema::type_mismatch  |
        | 7f   | LT-UNK-05 tr::schema::type_mismatch  |

    Scenario Outline: A corrupted CRC is a CRC failure whatever the type (<type>)
      Given the frame "<type> 10 02 00 ca fe" with a CRC-32C trailer
      And the byte at offset 5 is corrupted
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

      Examples:
        | type |
        | 01   |
        | 05   |
        | 3c   |
        | ff   |

    Scenario: A relative stamp on a nested unknown type still needs an anchor
      Given the bytes "06 40 09 00 0e 22 01 00 aa 05 00 00 00"
      When it is received as a datagram
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"

  Rule: LT-TYPE-08 The wire format does not version: no version bit, no header field that changes meaning per frame

    Scenario: A frame that sets bit 7, as a would-be version flag, is INVALID, not a newer frame
      Given the bytes "09 80 00 00"
      When it is received as a datagram
      Then it is rejected by rule LT-OPT-01 with code "INVALID"

    Scenario: The header is type, opt and length, nothing else: the payload starts at offset 4
      Given the bytes "09 00 02 00 01 00"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload |
        | 0     | 0      | 09   | 00  | 2      | 0100    |
