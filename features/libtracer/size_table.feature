@libtracer
Feature: libtracer frame size summary
  libtracer-01, §Frame size summary: one rule per row of the table. Each
  row is a VALUE with the payload "ca fe" (docs/libtracer.md); T0 stands
  for the 8 bytes of the wire-time 1777766400000000000 ns; the relative
  rows sit inside a user record stamped T0 ("80 60 LL 00 ... T0"), whose
  stamp anchors them. Overhead is H + T_ts + T_crc: the frame's bytes
  minus its payload. Each row is received as a datagram and on a stream, and
  encoded again exactly.

  Rule: LT-SIZE-01 Minimum (LL=0, no trailer): H=4, T_ts=0, T_crc=0, overhead 4 bytes

    Scenario Outline: 01 00 02 00 ca fe
      Given the bytes "01 00 02 00 ca fe"
      When it is received <transport>
      Then the VALUE frame takes 6 bytes with an overhead of 4 bytes
      And the VALUE frame has no trailer_ts and no CRC
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |

  Rule: LT-SIZE-02 LL=0, CRC-16 only: H=4, T_ts=0, T_crc=2, overhead 6 bytes

    Scenario Outline: 01 14 02 00 ca fe 41 ea
      Given the bytes "01 14 02 00 ca fe 41 ea"
      When it is received <transport>
      Then the VALUE frame takes 8 bytes with an overhead of 6 bytes
      And the VALUE frame has no trailer_ts and a CRC-16-CCITT
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |

  Rule: LT-SIZE-03 LL=0, CRC-32 only: H=4, T_ts=0, T_crc=4, overhead 8 bytes

    Scenario Outline: 01 10 02 00 ca fe 2b 68 f2 10
      Given the bytes "01 10 02 00 ca fe 2b 68 f2 10"
      When it is received <transport>
      Then the VALUE frame takes 10 bytes with an overhead of 8 bytes
      And the VALUE frame has no trailer_ts and a CRC-32C
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |

  Rule: LT-SIZE-04 LL=0, TS rel only: H=4, T_ts=4, T_crc=0, overhead 8 bytes

    Scenario Outline: 01 22 02 00 ca fe e8 03 00 00
      Given the bytes "01 22 02 00 ca fe e8 03 00 00"
      And it is wrapped in a user record stamped T0
      When it is received <transport>
      Then the VALUE frame takes 10 bytes with an overhead of 8 bytes
      And the VALUE frame has a relative trailer_ts and no CRC
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |

  Rule: LT-SIZE-05 LL=0, TS rel + CRC-16: H=4, T_ts=4, T_crc=2, overhead 10 bytes

    Scenario Outline: 01 36 02 00 ca fe e8 03 00 00 a5 9e
      Given the bytes "01 36 02 00 ca fe e8 03 00 00 a5 9e"
      And it is wrapped in a user record stamped T0
      When it is received <transport>
      Then the VALUE frame takes 12 bytes with an overhead of 10 bytes
      And the VALUE frame has a relative trailer_ts and a CRC-16-CCITT
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |

  Rule: LT-SIZE-06 LL=0, TS rel + CRC-32: H=4, T_ts=4, T_crc=4, overhead 12 bytes

    Scenario Outline: 01 32 02 00 ca fe e8 03 00 00 a2 08 9c 54
      Given the bytes "01 32 02 00 ca fe e8 03 00 00 a2 08 9c 54"
      And it is wrapped in a user record stamped T0
      When it is received <transport>
      Then the VALUE frame takes 14 bytes with an overhead of 12 bytes
      And the VALUE frame has a relative trailer_ts and a CRC-32C
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |

  Rule: LT-SIZE-07 LL=0, TS abs only: H=4, T_ts=8, T_crc=0, overhead 12 bytes

    Scenario Outline: 01 20 02 00 ca fe T0
      Given the bytes "01 20 02 00 ca fe T0"
      When it is received <transport>
      Then the VALUE frame takes 14 bytes with an overhead of 12 bytes
      And the VALUE frame has an absolute trailer_ts and no CRC
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |

  Rule: LT-SIZE-08 LL=0, TS abs + CRC-16: H=4, T_ts=8, T_crc=2, overhead 14 bytes

    Scenario Outline: 01 34 02 00 ca fe T0 1b 9a
      Given the bytes "01 34 02 00 ca fe T0 1b 9a"
      When it is received <transport>
      Then the VALUE frame takes 16 bytes with an overhead of 14 bytes
      And the VALUE frame has an absolute trailer_ts and a CRC-16-CCITT
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |

  Rule: LT-SIZE-09 LL=0, TS abs + CRC-32 (typical wire frame): H=4, T_ts=8, T_crc=4, overhead 16 bytes

    Scenario Outline: 01 30 02 00 ca fe T0 aa 55 2e aa
      Given the bytes "01 30 02 00 ca fe T0 aa 55 2e aa"
      When it is received <transport>
      Then the VALUE frame takes 18 bytes with an overhead of 16 bytes
      And the VALUE frame has an absolute trailer_ts and a CRC-32C
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |

  Rule: LT-SIZE-10 LL=1 (extended length), TS abs + CRC-32: H=6, T_ts=8, T_crc=4, overhead 18 bytes

    Scenario Outline: 01 38 02 00 00 00 ca fe T0 aa 55 2e aa
      Given the bytes "01 38 02 00 00 00 ca fe T0 aa 55 2e aa"
      When it is received <transport>
      Then the VALUE frame takes 20 bytes with an overhead of 18 bytes
      And the VALUE frame has an absolute trailer_ts and a CRC-32C
      When the tree is encoded exactly
      Then the bytes are the bytes received

      Examples:
        | transport     |
        | as a datagram |
        | on a stream   |
