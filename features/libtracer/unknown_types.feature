@libtracer
Feature: libtracer handling of unknown type codes
  libtracer-01, §Handling unknown type codes. A receiver that meets an
  unassigned type (0x0E..0x7F, or the reserved 0x05) does not crash,
  validates its CRC, respects its length when skipping it, and goes on with
  the surrounding stream. As the outer addressed TLV it is answered with
  ERROR{tr::schema::type_mismatch}; nested in a structured TLV it is
  opaque bytes.

  "With per-frame reports" asks the testee to list each top-level frame
  with its own error and go on (docs/libtracer.md, the report "frames"),
  which is how a receiver's "continue parsing" shows. Byte strings are hex;
  T0 stands for the 8 bytes of the wire-time 1777766400000000000 ns.

  Rule: LT-UNK-01 A receiver that meets an unknown type code does not crash

    @reading:LT-READ-14
    Scenario Outline: An outer unknown TLV (<case>) gets an answer, not a crash
      Given the bytes "<bytes>"
      When it is received <how>
      Then it is rejected by rule LT-UNK-05 with code "tr::schema::type_mismatch"

      Examples:
        | case                          | bytes                      | how           |
        | PL=1 over bytes that are no TLVs | 0e 40 03 00 ff ff ff    | as a datagram |
        | PL=1 over bytes that are no TLVs | 7f 40 03 00 00 00 00    | on a stream   |
        | empty payload                 | 05 00 00 00                | as a datagram |
        | LL=1, empty                   | 20 08 00 00 00 00          | on a stream   |

    Scenario Outline: A nested unknown TLV (<case>) is accepted as opaque bytes
      Given the bytes "<bytes>"
      When it is received as a datagram
      Then it is accepted

      Examples:
        | case                             | bytes                                  |
        | PL=1 over bytes that are no TLVs | 80 40 07 00 0e 40 03 00 ff ff ff       |
        | PL=1 over zero bytes             | 80 40 07 00 7f 40 03 00 00 00 00       |
        | 0x05 with PL=1 holding a 0x05    | 80 40 08 00 05 40 04 00 05 40 00 00    |

  Rule: LT-UNK-02 A receiver continues parsing the surrounding stream past an unknown TLV

    @reading:LT-READ-14
    Scenario: An unknown outer TLV is reported, and the STATUS after it is parsed
      Given the bytes "0e 00 01 00 aa"
      And the bytes "09 00 00 00"
      When it is received with per-frame reports
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload | error                               |
        | 0     | 0      | 0e   | 00  | 1      |         | LT-UNK-05 tr::schema::type_mismatch |
        | 0     | 5      | 09   | 00  | 0      | (empty) |                                     |

    @reading:LT-READ-14
    Scenario: The same on a stream
      Given the bytes "05 00 01 00 aa"
      And the bytes "09 00 00 00"
      When it is received on a stream with per-frame reports
      Then it is accepted
      And frame 1 is rejected by rule LT-UNK-05 with code "tr::schema::type_mismatch"
      And the frame tree is:
        | depth | offset | type | error                               |
        | 0     | 0      | 05   | LT-UNK-05 tr::schema::type_mismatch |
        | 0     | 5      | 09   |                                     |

    Scenario: A nested unknown TLV is skipped and its sibling parsed
      Given the bytes "06 40 0c 00 0e 00 03 00 ff ff ff 02 00 01 00 61"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload | children |
        | 0     | 0      | 06   | 40  | 12     |         | 2        |
        | 1     | 4      | 0e   | 00  | 3      | ffffff  |          |
        | 1     | 11     | 02   | 00  | 1      | 61      |          |

  Rule: LT-UNK-03 A receiver validates the CRC of an unknown TLV, if present

    Scenario: An outer unknown TLV with a bad CRC is a CRC failure, or its type's mismatch in another check order
      Given the frame "0e 10 01 00 aa" with a CRC-32C trailer
      And the byte at offset 5 is corrupted
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail", or "tr::schema::type_mismatch" in another check order

    Scenario: A nested unknown TLV with a bad CRC-16 rejects its parent
      Given the frames:
        | depth | type | opt | payload |
        | 0     | 80   | 40  |         |
        | 1     | 0e   | 14  | aa bb   |
      And the byte at offset 10 is corrupted
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

    Scenario: A nested unknown TLV with a good CRC is accepted, its CRC reported
      Given the frames:
        | depth | type | opt | payload |
        | 0     | 80   | 40  |         |
        | 1     | 0e   | 14  | aa bb   |
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | payload | children | crc               |
        | 0     | 80   | 40  |         | 1        |                   |
        | 1     | 0e   | 14  | aabb    |          | CRC-16-CCITT f90a |

    Scenario: With per-frame reports a bad CRC on an unknown outer TLV is its error, and parsing goes on
      Given the frame "0e 10 01 00 aa" with a CRC-32C trailer
      And the byte at offset 5 is corrupted
      And the bytes "09 00 00 00"
      When it is received with per-frame reports
      Then it is accepted
      And frame 1 is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail", or "tr::schema::type_mismatch" in another check order
      And frame 2 has the payload ""

  Rule: LT-UNK-04 A receiver respects the length and trailer when it skips an unknown TLV

    Scenario: A nested unknown TLV with stamp and CRC, then its sibling
      Given the frames:
        | depth | type | opt | payload  | ts |
        | 0     | 06   | 40  |          |    |
        | 1     | 7f   | 30  | 01 02 03 | T0 |
        | 1     | 02   | 00  | 61       |    |
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload | ts     |
        | 0     | 0      | 06   | 40  | 24     |         |        |
        | 1     | 4      | 7f   | 30  | 3      | 010203  | abs T0 |
        | 1     | 23     | 02   | 00  | 1      | 61      |        |

    @reading:LT-READ-14
    Scenario: An unknown outer TLV with LL=1 and a trailer, then a STATUS
      Given the frame "20 18 03 00 00 00 01 02 03" with a CRC-32C trailer
      And the bytes "09 00 00 00"
      When it is received with per-frame reports
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | error                               |
        | 0     | 0      | 20   | LT-UNK-05 tr::schema::type_mismatch |
        | 0     | 13     | 09   |                                     |

  Rule: LT-UNK-05 An unknown TLV that is the outer addressed TLV is answered with tr::schema::type_mismatch if a return path exists: the reply to a decode request is one (project-defined)

    @reading:LT-READ-14
    Scenario Outline: Outer type <type>
      Given the bytes "<type> 00 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-UNK-05 with code "tr::schema::type_mismatch"

      Examples:
        | type |
        | 05   |
        | 0e   |
        | 10   |
        | 1f   |
        | 20   |
        | 40   |
        | 7f   |

    @reading:LT-READ-14
    Scenario: On a stream as well
      Given the bytes "0e 00 01 00 aa"
      When it is received on a stream
      Then it is rejected by rule LT-UNK-05 with code "tr::schema::type_mismatch"

    @reading:LT-READ-14=silently-skipped
    Scenario: Under reading silently-skipped, a decode request is no return path: the outer unknown TLV is skipped as opaque bytes
      Given the bytes "0e 00 01 00 aa"
      And the bytes "09 00 00 00"
      When it is received as a datagram
      Then it is accepted
      And there are 2 top-level frames
      And frame 1 has the payload "aa"

    @reading:LT-READ-14
    Scenario: An unknown TLV after a known one: the verdict is the mismatch
      Given the bytes "09 00 00 00"
      And the bytes "0e 00 01 00 aa"
      When it is received as a datagram
      Then it is rejected by rule LT-UNK-05 with code "tr::schema::type_mismatch"

  Rule: LT-UNK-06 An unknown TLV nested in a structured TLV is opaque bytes, never walked, and parsing continues (project-defined)

    Scenario: A nested unknown TLV with PL=1 over well-formed children keeps them as payload bytes
      Given the bytes "80 40 0e 00 0e 40 05 00 02 00 01 00 61 02 00 01 00 62"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload        | children |
        | 0     | 0      | 80   | 40  | 14     |                | 2        |
        | 1     | 4      | 0e   | 40  | 5      | 02 00 01 00 61 |          |
        | 1     | 13     | 02   | 00  | 1      | 62             |          |

    Scenario: Bytes under a nested unknown TLV that would be INVALID as TLVs are not looked at
      Given the bytes "80 40 08 00 0e 40 04 00 00 80 ff ff"
      When it is received as a datagram
      Then it is accepted
      And frame 2 has the payload "00 80 ff ff"

    Scenario: Its depth does not count against the work budget
      Given the bytes "80 40 0c 00 05 40 08 00 05 40 04 00 05 40 00 00"
      When it is received with a work budget of 1
      Then it is accepted
      And there are 2 frames
