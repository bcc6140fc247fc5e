@libtracer
Feature: libtracer frame layout
  libtracer-01, §Frame layout. Every TLV is a header (type, opt, length),
  a payload of exactly length bytes, and an optional trailer: trailer_ts,
  then trailer_crc. Every multi-byte field is little-endian; the header is
  packed and fields may sit at any offset.

  Byte strings are hex; T0 stands for the 8 bytes (u64 little-endian) of
  the wire-time 2026-05-03T00:00:00Z = 1777766400000000000 ns, T0+N for N ns
  later; "[N bytes i mod M]" for N bytes whose byte i is i mod M.

  Rule: LT-FRAME-01 Offset 0 of every TLV is the type code, one byte

    Scenario Outline: The first byte is the type code <type>
      Given the bytes "<type> 00 01 00 01"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type   | opt | length | payload |
        | 0     | 0      | <type> | 00  | 1      | 01      |

      Examples:
        | type |
        | 01   |
        | 02   |
        | 09   |
        | 80   |
        | ff   |

    Scenario: The type of a child is the first byte of the child
      Given a PATH frame with NAME children "a" and "b"
      When it is received as a datagram
      Then the frame tree is:
        | depth | offset | type | opt | length | payload | children |
        | 0     | 0      | 06   | 40  | 10     |         | 2        |
        | 1     | 4      | 02   | 00  | 1      | 61      |          |
        | 1     | 9      | 02   | 00  | 1      | 62      |          |

  Rule: LT-FRAME-02 Offset 1 of every TLV is opt, the bit-packed options byte

    Scenario: The options byte at offset 1 says a CRC-32C trailer follows the payload
      Given the frame "01 10 01 00 01" with a CRC-32C trailer
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | crc              |
        | 0     | 01   | 10  | 1      | 01      | CRC-32C a016d052 |

    Scenario: A reserved bit in the byte at offset 1 is read as an option, not as data
      Given the bytes "01 80 01 00 01"
      When it is received as a datagram
      Then it is rejected by rule LT-OPT-01 with code "INVALID"

  Rule: LT-FRAME-03 With LL=0 the length is a u16 little-endian at offset 2 and the header is 4 bytes

    Scenario: The length bytes "02 01" are 258, read little-endian, and the payload starts at offset 4
      Given the bytes "01 00 02 01 [258 bytes i mod 251]"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload                 |
        | 0     | 01   | 00  | 258    | [258 bytes i mod 251]   |
      And frame 1 takes 262 bytes with an overhead of 4 bytes

    Scenario: A length read big-endian (513) would not match the bytes: 257 payload bytes are too few for 258
      Given the bytes "01 00 02 01 [257 bytes i mod 251]"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

  Rule: LT-FRAME-04 With LL=1 the length is a u32 little-endian at offset 2 and the header is 6 bytes

    Scenario: A 5-byte payload behind a 6-byte header
      Given the bytes "01 08 05 00 00 00 aa bb cc dd ee"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload    |
        | 0     | 01   | 08  | 5      | aabbccddee |
      And frame 1 takes 11 bytes with an overhead of 6 bytes

    Scenario: All four length bytes count: "02 01 00 00" is 258
      Given the bytes "01 08 02 01 00 00 [258 bytes i mod 7]"
      When it is received as a datagram
      Then it is accepted
      And frame 1 takes 264 bytes with an overhead of 6 bytes

    Scenario: With LL=0 the same length bytes are a u16 and the payload starts two bytes earlier
      Given the bytes "01 00 05 00 00 00 aa bb cc"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload    |
        | 0     | 01   | 00  | 5      | 0000aabbcc |

  Rule: LT-FRAME-05 The payload is exactly length bytes at offset H, an untouched user region

    Scenario: Payload bytes that look like a header and a trailer are returned untouched
      Given the bytes "01 00 0c 00 09 00 00 00 01 10 05 00 aa bb cc dd"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload                             |
        | 0     | 01   | 00  | 12     | 09 00 00 00 01 10 05 00 aa bb cc dd |

    Scenario: The payload ends after length bytes: a byte beyond it starts the next frame
      Given the bytes "01 00 01 00 01 ff"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

  Rule: LT-FRAME-06 An absolute trailer_ts is a u64 little-endian at H+L, present iff TS=1 and TF=0

    Scenario: TS=1, TF=0: eight stamp bytes follow the payload
      Given the bytes "01 20 02 00 ca fe T0"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | ts     | resolved |
        | 0     | 01   | 20  | 2      | cafe    | abs T0 | T0       |
      And frame 1 takes 14 bytes with an overhead of 12 bytes

    Scenario: The stamp is a u64 little-endian
      Given the bytes "01 20 01 00 aa 01 00 00 00 00 00 00 00"
      When it is received as a datagram
      Then the frame tree is:
        | depth | type | opt | length | payload | ts    | resolved |
        | 0     | 01   | 20  | 1      | aa      | abs 1 | 1        |

    Scenario: TS=0: there is no stamp, and 8 more bytes would be another frame
      Given the bytes "01 00 02 00 ca fe"
      When it is received as a datagram
      Then the frame tree is:
        | depth | type | opt | length | payload | ts |
        | 0     | 01   | 00  | 2      | cafe    |    |

    Scenario: An absolute stamp cut to 4 bytes is a truncated frame
      Given the bytes "01 20 02 00 ca fe 00 00 a0 2d"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

  Rule: LT-FRAME-07 A relative trailer_ts is an i32 little-endian at H+L, present iff TS=1 and TF=1

    Scenario: TS=1, TF=1: four stamp bytes, a signed offset from the parent's stamp
      Given the bytes "80 60 0a 00 01 22 02 00 ca fe ff ff ff ff T0"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | children | ts     | resolved |
        | 0     | 80   | 60  | 10     |         | 1        | abs T0 | T0       |
        | 1     | 01   | 22  | 2      | cafe    |          | rel -1 | T0-1     |

    Scenario: A relative stamp is 4 bytes: written as 8, its 4 zero high bytes are read as a frame of type 0x00
      Given the bytes "80 60 0e 00 01 22 02 00 ca fe e8 03 00 00 00 00 00 00 T0"
      When it is received as a datagram
      Then it is rejected by rule LT-TYPE-01 with code "INVALID"

  Rule: LT-FRAME-08 A CRC-32C trailer_crc is a u32 little-endian at H+L+T, present iff CR=1 and CW=0

    Scenario: The worked example's CRC-32C follows the payload
      Given the bytes "01 10 05 00 aa bb cc dd ee b6 c9 12 23"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload    | crc              |
        | 0     | 01   | 10  | 5      | aabbccddee | CRC-32C 2312c9b6 |

    Scenario: The CRC follows the trailer_ts
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      When it is received as a datagram
      Then the frame tree is:
        | depth | type | opt | length | payload  | ts     | resolved | crc              |
        | 0     | 01   | 30  | 4      | 2a000000 | abs T0 | T0       | CRC-32C 4d50096a |

    Scenario: With CW=1 the same four CRC bytes are read as a 2-byte CRC-16 and a stray remainder
      Given the bytes "01 14 05 00 aa bb cc dd ee b6 c9 12 23"
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

  Rule: LT-FRAME-09 A CRC-16-CCITT trailer_crc is a u16 little-endian at H+L+T, present iff CR=1 and CW=1

    Scenario: A 2-byte CRC-16-CCITT follows the payload
      Given the bytes "01 14 05 00 aa bb cc dd ee 05 be"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload    | crc               |
        | 0     | 01   | 14  | 5      | aabbccddee | CRC-16-CCITT be05 |
      And frame 1 takes 11 bytes with an overhead of 6 bytes

    Scenario: With CR=0 no CRC is read, whatever CW says: the next frame follows the payload
      Given the bytes "01 04 05 00 aa bb cc dd ee"
      And the bytes "09 00 00 00"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload    | crc |
        | 0     | 0      | 01   | 04  | 5      | aabbccddee |     |
        | 0     | 9      | 09   | 00  | 0      | (empty)    |     |

  Rule: LT-FRAME-10 The total frame size is H + L + T + the CRC width

    Scenario Outline: <case>: H=<h>, L=<l>, the frame takes <size> bytes
      Given the frames:
        | depth | type | opt   | payload   | ts   |
        | 0     | 01   | <opt> | <payload> | <ts> |
      When it is received as a datagram
      Then it is accepted
      And frame 1 takes <size> bytes with an overhead of <overhead> bytes

      Examples:
        | case                        | opt | h | l   | payload              | ts | size | overhead |
        | empty, no trailer           | 00  | 4 | 0   | (empty)              |    | 4    | 4        |
        | empty, LL=1, no trailer     | 08  | 6 | 0   | (empty)              |    | 6    | 6        |
        | 1 byte, CRC-16              | 14  | 4 | 1   | 01                   |    | 7    | 6        |
        | 300 bytes, CRC-32C          | 10  | 4 | 300 | [300 bytes i mod 13] |    | 308  | 8        |
        | 300 bytes, LL=1, abs TS     | 28  | 6 | 300 | [300 bytes i mod 13] | T0 | 314  | 14       |
        | 3 bytes, abs TS and CRC-16  | 34  | 4 | 3   | 01 02 03             | T0 | 17   | 14       |
        | 3 bytes, LL=1, TS, CRC-32C  | 38  | 6 | 3   | 01 02 03             | T0 | 21   | 18       |

    Scenario: A relative child inside an absolute record: 4 + 2 + 4 + 2 bytes
      Given a VALUE "ca fe" with opt "36"
      When it is received as a datagram
      Then it is accepted
      And the VALUE frame takes 12 bytes with an overhead of 10 bytes
      And frame 1 takes 24 bytes with an overhead of 12 bytes

  Rule: LT-FRAME-11 Every multi-byte field (length, trailer_ts, trailer_crc) is little-endian

    Scenario: A CRC-32C written big-endian does not match
      Given the frame "01 10 05 00 aa bb cc dd ee" with a CRC-32C trailer written big-endian
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    Scenario: A CRC-16-CCITT written big-endian does not match
      Given the frame "01 14 05 00 aa bb cc dd ee" with a CRC-16-CCITT trailer written big-endian
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-10 with code "tr::frame::crc_fail"

    Scenario: A stamp whose last byte is 01 is 2^56 ns, not 1 ns
      Given the bytes "01 20 00 00 00 00 00 00 00 00 00 01"
      When it is received as a datagram
      Then the resolved time of frame 1 is "72057594037927936"

    Scenario: A length "00 05" is 1280 bytes, not 5
      Given the bytes "01 00 00 05 aa bb cc dd ee"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

  Rule: LT-FRAME-12 Implementations MUST tolerate unaligned reads of length, trailer_ts and trailer_crc

    Scenario: Frames at odd offsets, with their length, stamp and CRC unaligned
      Given the bytes "01 00 01 00 01"
      And the bytes "01 30 01 00 aa T0 00 11 9a 1a"
      And the bytes "01 1c 03 00 00 00 bb cc dd 7b 8b"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload | ts     | resolved | crc               |
        | 0     | 0      | 01   | 00  | 1      | 01      |        |          |                   |
        | 0     | 5      | 01   | 30  | 1      | aa      | abs T0 | T0       | CRC-32C 1a9a1100  |
        | 0     | 22     | 01   | 1c  | 3      | bbccdd  |        |          | CRC-16-CCITT 8b7b |

  Rule: LT-FRAME-13 The minimum frame is 4 bytes: empty payload, no trailer, LL=0

    Scenario: Four bytes are a whole frame
      Given the bytes "09 00 00 00"
      When it is received as a datagram
      Then it is accepted
      And frame 1 takes 4 bytes with an overhead of 4 bytes

    Scenario Outline: Fewer than 4 bytes are no frame
      Given the bytes "<bytes>"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

      Examples:
        | bytes    |
        | 09       |
        | 09 00    |
        | 09 00 00 |
