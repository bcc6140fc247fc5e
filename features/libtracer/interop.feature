@libtracer
Feature: libtracer interop between minimal and feature-rich implementations
  libtracer-01, §Interop: minimal vs feature-rich implementations. Every
  conforming receiver accepts every combination of LL, CW and TF, chosen
  per TLV and mixed freely; a sender SHOULD default to the smaller
  variants (LL=0, CW=1, TF=1 where applicable) and use a larger one only
  when the smaller would not fit.

  "A VALUE "ca fe" with opt X" is a VALUE whose trailer is the one opt asks
  for: an absolute stamp T0 (1777766400000000000 ns), or a relative stamp
  +1000 ns inside a user record stamped T0; the CRC the steps compute.
  Byte strings are hex; T0 stands for the stamp's 8 bytes.

  Rule: LT-IOP-01 Every receiver accepts all combinations of LL, CW and TF, per TLV, mixed freely

    Scenario Outline: LL=<LL> TS=<TS> TF=<TF> CR=<CR> CW=<CW> (opt <opt>)
      Given a VALUE "ca fe" with opt "<opt>"
      When it is received as a datagram
      Then it is accepted
      And the VALUE frame takes <size> bytes with an overhead of <overhead> bytes
      And the VALUE frame has <ts> and <crc>

      Examples:
        | LL | TS | TF | CR | CW | opt | size | overhead | ts                     | crc            |
        | 0  | 0  | 0  | 0  | 0  | 00  | 6    | 4        | no trailer_ts          | no CRC         |
        | 0  | 0  | 0  | 0  | 1  | 04  | 6    | 4        | no trailer_ts          | no CRC         |
        | 0  | 0  | 0  | 1  | 0  | 10  | 10   | 8        | no trailer_ts          | a CRC-32C      |
        | 0  | 0  | 0  | 1  | 1  | 14  | 8    | 6        | no trailer_ts          | a CRC-16-CCITT |
        | 0  | 0  | 1  | 0  | 0  | 02  | 6    | 4        | no trailer_ts          | no CRC         |
        | 0  | 0  | 1  | 0  | 1  | 06  | 6    | 4        | no trailer_ts          | no CRC         |
        | 0  | 0  | 1  | 1  | 0  | 12  | 10   | 8        | no trailer_ts          | a CRC-32C      |
        | 0  | 0  | 1  | 1  | 1  | 16  | 8    | 6        | no trailer_ts          | a CRC-16-CCITT |
        | 0  | 1  | 0  | 0  | 0  | 20  | 14   | 12       | an absolute trailer_ts | no CRC         |
        | 0  | 1  | 0  | 0  | 1  | 24  | 14   | 12       | an absolute trailer_ts | no CRC         |
        | 0  | 1  | 0  | 1  | 0  | 30  | 18   | 16       | an absolute trailer_ts | a CRC-32C      |
        | 0  | 1  | 0  | 1  | 1  | 34  | 16   | 14       | an absolute trailer_ts | a CRC-16-CCITT |
        | 0  | 1  | 1  | 0  | 0  | 22  | 10   | 8        | a relative trailer_ts  | no CRC         |
        | 0  | 1  | 1  | 0  | 1  | 26  | 10   | 8        | a relative trailer_ts  | no CRC         |
        | 0  | 1  | 1  | 1  | 0  | 32  | 14   | 12       | a relative trailer_ts  | a CRC-32C      |
        | 0  | 1  | 1  | 1  | 1  | 36  | 12   | 10       | a relative trailer_ts  | a CRC-16-CCITT |
        | 1  | 0  | 0  | 0  | 0  | 08  | 8    | 6        | no trailer_ts          | no CRC         |
        | 1  | 0  | 0  | 0  | 1  | 0c  | 8    | 6        | no trailer_ts          | no CRC         |
        | 1  | 0  | 0  | 1  | 0  | 18  | 12   | 10       | no trailer_ts          | a CRC-32C      |
        | 1  | 0  | 0  | 1  | 1  | 1c  | 10   | 8        | no trailer_ts          | a CRC-16-CCITT |
        | 1  | 0  | 1  | 0  | 0  | 0a  | 8    | 6        | no trailer_ts          | no CRC         |
        | 1  | 0  | 1  | 0  | 1  | 0e  | 8    | 6        | no trailer_ts          | no CRC         |
        | 1  | 0  | 1  | 1  | 0  | 1a  | 12   | 10       | no trailer_ts          | a CRC-32C      |
        | 1  | 0  | 1  | 1  | 1  | 1e  | 10   | 8        | no trailer_ts          | a CRC-16-CCITT |
        | 1  | 1  | 0  | 0  | 0  | 28  | 16   | 14       | an absolute trailer_ts | no CRC         |
        | 1  | 1  | 0  | 0  | 1  | 2c  | 16   | 14       | an absolute trailer_ts | no CRC         |
        | 1  | 1  | 0  | 1  | 0  | 38  | 20   | 18       | an absolute trailer_ts | a CRC-32C      |
        | 1  | 1  | 0  | 1  | 1  | 3c  | 18   | 16       | an absolute trailer_ts | a CRC-16-CCITT |
        | 1  | 1  | 1  | 0  | 0  | 2a  | 12   | 10       | a relative trailer_ts  | no CRC         |
        | 1  | 1  | 1  | 0  | 1  | 2e  | 12   | 10       | a relative trailer_ts  | no CRC         |
        | 1  | 1  | 1  | 1  | 0  | 3a  | 16   | 14       | a relative trailer_ts  | a CRC-32C      |
        | 1  | 1  | 1  | 1  | 1  | 3e  | 14   | 12       | a relative trailer_ts  | a CRC-16-CCITT |

    Scenario: Variants mixed in one record, on both transports
      Given the frames:
        | depth | type | opt | payload  | ts      |
        | 0     | 80   | 78  |          | T0      |
        | 1     | 01   | 1c  | 01 02    |         |
        | 1     | 01   | 32  | 03 04    | +5      |
        | 1     | 01   | 34  | 05 06    | T0+9    |
        | 1     | 80   | 4a  |          |         |
        | 2     | 01   | 36  | 07 08    | -2      |
        | 1     | 01   | 00  | 09 0a    |         |
      When it is received both as a datagram and on a stream
      Then both transports give the same result
      And it is accepted
      And the frame tree is:
        | depth | type | opt | payload | children | ts       | resolved |
        | 0     | 80   | 78  |         | 5        | abs T0   | T0       |
        | 1     | 01   | 1c  | 0102    |          |          |          |
        | 1     | 01   | 32  | 0304    |          | rel +5   | T0+5     |
        | 1     | 01   | 34  | 0506    |          | abs T0+9 | T0+9     |
        | 1     | 80   | 4a  |         | 1        |          |          |
        | 2     | 01   | 36  | 0708    |          | rel -2   | T0-2     |
        | 1     | 01   | 00  | 090a    |          |          |          |

  @should
  Rule: LT-IOP-02 A sender SHOULD default to the smaller variants (LL=0, CW=1, TF=1) and use a larger one only when the smaller would not fit

    @reading:LT-READ-24
    Scenario Outline: The smallest variants of <example>
      Given the bytes "<received>"
      When it is received as a datagram
      And the tree is encoded with the smallest variants
      Then the bytes are "<smallest>"
      When the encoded bytes are received as a datagram
      Then the frames carry the payloads and wire-times of the first reception

      Examples:
        | example                      | received                                                                      | smallest                                                                  |
        | uint32 with TS and CRC-32C   | 01 30 04 00 2a 00 00 00 T0 6a 09 50 4d                                        | 01 34 04 00 2a 00 00 00 T0 c8 e9                                          |
        | the 5-byte VALUE             | 01 10 05 00 aa bb cc dd ee b6 c9 12 23                                        | 01 14 05 00 aa bb cc dd ee 05 be                                          |
        | PATH /sensor/temp            | 06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47 | 06 54 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 fc dd   |
        | a small payload under LL=1   | 01 08 02 00 00 00 ca fe                                                       | 01 00 02 00 ca fe                                                         |
        | CW=1 without a CRC           | 01 04 01 00 aa                                                                | 01 00 01 00 aa                                                            |
        | TF=1 without a stamp         | 01 02 01 00 aa                                                                | 01 00 01 00 aa                                                            |
        | a child stamped absolutely   | 80 60 0e 00 01 20 02 00 ca fe T0+1000 T0                                      | 80 60 0a 00 01 22 02 00 ca fe e8 03 00 00 T0                              |
        | the minimum frame            | 09 00 00 00                                                                   | 09 00 00 00                                                               |

    @reading:LT-READ-24
    Scenario: 102400 bytes need LL=1; the CRC still takes CRC-16
      Given the bytes "01 18 00 90 01 00 [102400 bytes i mod 251] 17 da 57 79"
      When it is received as a datagram
      And the tree is encoded with the smallest variants
      Then the bytes are "01 1c 00 90 01 00 [102400 bytes i mod 251] 97 65"

    Scenario: An offset beyond the i32 range keeps the absolute stamp
      Given the bytes "80 60 0e 00 01 20 02 00 ca fe T0+3000000000 T0"
      When it is received as a datagram
      And the tree is encoded with the smallest variants
      Then the bytes are the bytes received

    Scenario Outline: A child <offset> ns from its parent's stamp: <form>
      Given the bytes "80 60 0e 00 01 20 02 00 ca fe <child> T0"
      When it is received as a datagram
      And the tree is encoded with the smallest variants
      Then the bytes are "<smallest>"

      Examples:
        | offset      | form                      | child         | smallest                                        |
        | 2147483647  | relative, the i32 maximum | T0+2147483647 | 80 60 0a 00 01 22 02 00 ca fe ff ff ff 7f T0    |
        | -2147483648 | relative, the i32 minimum | T0-2147483648 | 80 60 0a 00 01 22 02 00 ca fe 00 00 00 80 T0    |
        | 2147483648  | absolute, one above i32   | T0+2147483648 | 80 60 0e 00 01 20 02 00 ca fe T0+2147483648 T0  |
        | -2147483649 | absolute, one below i32   | T0-2147483649 | 80 60 0e 00 01 20 02 00 ca fe T0-2147483649 T0  |

    Scenario: A top-level stamp has no parent: it stays absolute
      Given the bytes "01 20 02 00 ca fe T0"
      When it is received as a datagram
      And the tree is encoded with the smallest variants
      Then the bytes are the bytes received

    @reading:LT-READ-24=crc32c-default
    Scenario: Under reading crc32c-default, the 5-byte VALUE keeps its CRC-32C
      Given the bytes "01 10 05 00 aa bb cc dd ee b6 c9 12 23"
      When it is received as a datagram
      And the tree is encoded with the smallest variants
      Then the bytes are the bytes received

    @reading:LT-READ-24
    Scenario: The encoder picks from the wanted wire-times of a frame tree
      Given the frame tree to encode:
        | depth | type | opt | payload | ts      | resolved |
        | 0     | 80   | 70  |         | T0      | T0       |
        | 1     | 01   | 30  | ca fe   | T0+1000 | T0+1000  |
      When the tree is encoded with the smallest variants
      Then the bytes are "80 74 0c 00 01 36 02 00 ca fe e8 03 00 00 a5 9e T0 d0 55"
