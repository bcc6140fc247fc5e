@libtracer
Feature: libtracer length encoding
  libtracer-01, §Length encoding. The length is fixed-width unsigned
  little-endian: a u16 (payload up to 65535 bytes) by default, a u32
  (up to 4 GiB - 1) with opt.LL=1. There is no u64 length: larger data is
  sliced by address shift across several TLVs.

  "[N bytes i mod M]" stands for N bytes whose byte i is i mod M.

  Rule: LT-LEN-01 With LL=0 the payload is at most 65535 bytes

    Scenario: 65535 payload bytes behind a u16 length
      Given the bytes "01 00 ff ff [65535 bytes i mod 251]"
      When it is received as a datagram
      Then it is accepted
      And frame 1 takes 65539 bytes with an overhead of 4 bytes

    Scenario: An exact encoder writes 65535 bytes with LL=0
      Given the frame tree to encode:
        | depth | type | opt | payload                 |
        | 0     | 01   | 00  | [65535 bytes i mod 251] |
      When the tree is encoded exactly
      Then the bytes are "01 00 ff ff [65535 bytes i mod 251]"

    Scenario: An exact encoder refuses 65536 bytes with LL=0
      Given the frame tree to encode:
        | depth | type | opt | payload                 |
        | 0     | 01   | 00  | [65536 bytes i mod 251] |
      When the tree is encoded exactly
      Then it is rejected by rule LT-LEN-01

    Scenario: Children that add up to 65536 bytes do not fit a PL=1 frame with LL=0
      Given the frame tree to encode:
        | depth | type | opt | payload                 |
        | 0     | 80   | 40  |                         |
        | 1     | 01   | 00  | [65532 bytes i mod 251] |
      When the tree is encoded exactly
      Then it is rejected by rule LT-LEN-01

    Scenario: The smallest variant of 65536 bytes takes LL=1
      Given the frame tree to encode:
        | depth | type | opt | payload                 |
        | 0     | 01   | 00  | [65536 bytes i mod 251] |
      When the tree is encoded with the smallest variants
      Then the bytes are "01 08 00 00 01 00 [65536 bytes i mod 251]"

  Rule: LT-LEN-02 With LL=1 the payload is at most 4 GiB - 1 bytes; there is no u64 length

    Scenario: The largest u32 length is a valid header: the frame is only cut short
      Given the bytes "01 08 ff ff ff ff"
      When it is received with MAX_TLV_BYTES 4294967295
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

    Scenario: The u32 length is four bytes, not eight: the payload follows at offset 6
      Given the bytes "01 08 03 00 00 00 00 00 00"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload  |
        | 0     | 01   | 08  | 3      | 00 00 00 |

    Scenario: 70000 payload bytes behind a u32 length
      Given the bytes "01 08 70 11 01 00 [70000 bytes i mod 251]"
      When it is received as a datagram
      Then it is accepted
      And frame 1 takes 70006 bytes with an overhead of 6 bytes

  Rule: LT-LEN-03 Data longer than 4 GiB - 1 bytes is sliced by address shift: no single TLV carries it

    Scenario: Slices are separate TLVs, each with its own length, never joined by the receiver
      Given the bytes "01 08 03 00 00 00 aa bb cc"
      And the bytes "01 08 02 00 00 00 dd ee"
      When it is received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | offset | type | opt | length | payload |
        | 0     | 0      | 01   | 08  | 3      | aabbcc  |
        | 0     | 9      | 01   | 08  | 2      | ddee    |
