@libtracer
Feature: libtracer trailer lifecycle: append-only at egress, strip-only at ingress
  libtracer-01, §Append-only-at-egress, strip-only-at-ingress. At rest a
  TLV is header + payload; in transit a trailer (trailer_ts, then
  trailer_crc) follows; a receiver validates and strips it, a forwarder
  strips it and attaches a fresh one, a recorder stores header + payload
  and re-attaches a fresh trailer on replay. The payload bytes never
  change. docs/DECISIONS.md: the TS and CR bits are cleared with the trailer, so
  stored bytes are themselves a frame.

  The testee strips and attaches through the decode arguments strip ("with
  its frames stored at rest": the "stored" bytes) and forward ("with its
  frames forwarded stamped T with a CRC": the "forwarded" bytes). The
  steps also strip and attach on the bytes, from the testee's own report
  of the frame it received ("its trailer is stripped": header with TS and CR cleared, then
  the payload; "a fresh trailer ... is attached": an absolute stamp and a
  CRC computed by the steps), and the testee receives the result; "the
  tree is encoded exactly with a trailer" has the testee's encoder attach
  it. Byte strings are hex; T0 stands for the 8 bytes of the wire-time
  1777766400000000000 ns.

  Rule: LT-LIFE-01 At rest a TLV is header + payload, with TS and CR cleared: the stored bytes are themselves a frame (project-defined)

    Scenario: A stamped frame with a CRC, stripped, is a 4-byte header and its payload
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      When it is received as a datagram
      And its trailer is stripped
      And the stripped bytes are received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload  | ts | crc |
        | 0     | 01   | 00  | 4      | 2a000000 |    |     |
      And frame 1 takes 8 bytes with an overhead of 4 bytes

    Scenario: An LL=1 frame keeps its 6-byte header at rest
      Given the frame "01 38 02 00 00 00 ca fe T0" with a CRC-32C trailer
      When it is received as a datagram
      And its trailer is stripped
      And the stripped bytes are received as a datagram
      Then it is accepted
      And the frame tree is:
        | depth | type | opt | length | payload | ts | crc |
        | 0     | 01   | 08  | 2      | cafe    |    |     |

    Scenario: Bytes whose trailer is gone but whose TS and CR bits are still set are no frame
      Given the bytes "01 30 04 00 2a 00 00 00"
      When it is received as a datagram
      Then it is rejected by rule LT-TRUNC-03 with code "tr::frame::truncated"

    @reading:LT-READ-20
    Scenario: The testee stores a received frame at rest
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      When it is received as a datagram with its frames stored at rest
      Then it is accepted
      And the stored bytes are "01 00 04 00 2a 00 00 00"

    @reading:LT-READ-20=header-kept
    Scenario: Under reading header-kept, the stored header is the received one
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      When it is received as a datagram with its frames stored at rest
      Then it is accepted
      And the stored bytes are "01 30 04 00 2a 00 00 00"

  Rule: LT-LIFE-02 In transit the trailer follows the payload: trailer_ts, then trailer_crc, 0 to 12 bytes

    Scenario Outline: A trailer of <size> bytes
      Given the bytes "<frame>"
      When it is received as a datagram
      Then it is accepted
      And frame 1 takes <total> bytes with an overhead of <overhead> bytes

      Examples:
        | size | frame                                      | total | overhead |
        | 0    | 01 00 04 00 2a 00 00 00                    | 8     | 4        |
        | 2    | 01 14 05 00 aa bb cc dd ee 05 be           | 11    | 6        |
        | 12   | 01 30 04 00 2a 00 00 00 T0 6a 09 50 4d     | 20    | 16       |

    Scenario: A CRC written before the stamp is read in the wrong places and fails
      Given the bytes "01 30 04 00 2a 00 00 00 6a 09 50 4d T0"
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

  Rule: LT-LIFE-03 At ingress a receiver validates the frame and strips the trailer; the payload stays identical (project-defined)

    Scenario: PATH /sensor/temp stripped at ingress: the same children, byte for byte
      Given a PATH frame with NAME children "sensor" and "temp" and an outer CRC-32C
      When it is received as a datagram
      And its trailer is stripped
      And the stripped bytes are received as a datagram
      Then it is accepted
      And the payload is unchanged from the first reception
      And the frame tree is:
        | depth | type | opt | length | payload      | children | crc |
        | 0     | 06   | 40  | 18     |              | 2        |     |
        | 1     | 02   | 00  | 6      | 73656e736f72 |          |     |
        | 1     | 02   | 00  | 4      | 74656d70     |          |     |

    Scenario: Only the outermost trailer is stripped: a child's trailer is payload
      Given the frames:
        | depth | type | opt | payload | ts |
        | 0     | 80   | 70  |         | T0 |
        | 1     | 01   | 14  | aa      |    |
        | 1     | 01   | 22  | bb      | +3 |
      When it is received as a datagram
      And its trailer is stripped
      And a fresh trailer stamped T0 is attached
      And it is received as a datagram
      Then it is accepted
      And the payload is unchanged from the first reception

    Scenario: Validation comes first: a frame that fails it is rejected, not stored
      Given the bytes "01 10 05 00 aa bb cc dd ee b6 c9 12 24"
      When it is received as a datagram
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

    Scenario: The testee validates before it stores: a corrupted frame is not stored
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4e"
      When it is received as a datagram with its frames stored at rest
      Then it is rejected by rule LT-CRC-09 with code "tr::frame::crc_fail"

  Rule: LT-LIFE-04 A forwarder strips the incoming trailer and attaches one with a fresh wire-time and a fresh CRC (project-defined)

    Scenario: Forwarded with a later wire-time and a CRC-16-CCITT instead of the CRC-32C
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      When it is received as a datagram
      And its trailer is stripped
      And a fresh trailer stamped T0+5000 with a CRC-16-CCITT is attached
      And it is received as a datagram
      Then it is accepted
      And the payload is unchanged from the first reception
      And the frame tree is:
        | depth | type | opt | length | payload  | ts          | resolved | crc               |
        | 0     | 01   | 34  | 4      | 2a000000 | abs T0+5000 | T0+5000  | CRC-16-CCITT e56a |

    Scenario: The testee's encoder attaches the outgoing trailer
      Given the bytes "01 10 05 00 aa bb cc dd ee b6 c9 12 23"
      When it is received as a datagram
      And its trailer is stripped
      And the stripped bytes are received as a datagram
      And the tree is encoded exactly with a trailer stamped T0+5000 and a CRC-16-CCITT
      Then the bytes are "01 34 05 00 aa bb cc dd ee T0+5000 9a 4e"

    Scenario: A structured frame forwarded with a fresh stamp and CRC-32C
      Given a PATH frame with NAME children "sensor" and "temp" and an outer CRC-32C
      When it is received as a datagram
      And its trailer is stripped
      And the stripped bytes are received as a datagram
      And the tree is encoded exactly with a trailer stamped T0+7 and a CRC-32C
      Then the bytes are "06 70 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 T0+7 89 1a 76 3b"

    Scenario: The testee forwards with a fresh wire-time and a fresh CRC
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      When it is received as a datagram with its frames forwarded stamped T0+5000 with a CRC-16-CCITT
      Then it is accepted
      And the forwarded bytes are "01 34 04 00 2a 00 00 00 88 13 a0 2d 1f e5 ab 18 6a e5"

  Rule: LT-LIFE-05 A recorder stores header + payload; on replay it re-attaches a fresh trailer (project-defined)

    Scenario: Recorded and replayed with the same wire-time and CRC width: the worked example again, byte for byte
      Given the bytes "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"
      When it is received as a datagram
      And its trailer is stripped
      And the stripped bytes are received as a datagram
      And the tree is encoded exactly with a trailer stamped T0 and a CRC-32C
      Then the bytes are "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d"

    Scenario: The ADC record at rest has lost its children's anchor until a stamp is attached again
      Given the bytes "80 60 18 00 01 22 04 00 64 00 00 00 00 00 00 00 01 22 04 00 65 00 00 00 01 00 00 00 T0"
      When it is received as a datagram
      And its trailer is stripped
      And the stripped bytes are received as a datagram
      Then it is rejected by rule LT-TS-04 with code "tr::path::invalid"
      When a fresh trailer stamped T0+1000 is attached to the stripped bytes
      And it is received as a datagram
      Then it is accepted
      And the payload is unchanged from the first reception
      And the resolved time of frame 2 is "T0+1000"
      And the resolved time of frame 3 is "T0+1001"

    Scenario: The testee replays stored bytes with a fresh trailer
      Given the bytes "01 00 01 00 01"
      When it is received as a datagram with its frames forwarded stamped T0 with a CRC-32C
      Then it is accepted
      And the forwarded bytes are "01 30 01 00 01 T0 eb cd 39 f7"

  Rule: LT-LIFE-06 Payload bytes are invariant under every transition

    Scenario Outline: <example>: strip, attach, forward and re-encode leave the payload as it was
      Given the bytes "<frame>"
      When it is received as a datagram
      And its trailer is stripped
      And the stripped bytes are received as a datagram
      Then the payload is unchanged from the first reception
      When the tree is encoded exactly
      And the encoded bytes are received as a datagram
      Then the payload is unchanged from the first reception
      When a fresh trailer stamped T0+1 with a CRC-32C is attached to the stripped bytes
      And it is received as a datagram
      Then the payload is unchanged from the first reception
      When its trailer is stripped
      And a fresh trailer stamped T0+2 with a CRC-16-CCITT is attached
      And it is received on a stream
      Then the payload is unchanged from the first reception

      Examples:
        | example          | frame                                                                                |
        | STATUS=OK        | 09 00 00 00                                                                          |
        | VALUE true       | 01 00 01 00 01                                                                       |
        | uint32, TS, CRC  | 01 30 04 00 2a 00 00 00 T0 6a 09 50 4d                                               |
        | 5-byte VALUE     | 01 10 05 00 aa bb cc dd ee b6 c9 12 23                                               |
        | PATH /sensor/temp | 06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47       |
        | empty PATH       | 06 40 00 00                                                                          |

    @reading:LT-READ-20
    Scenario: The testee strips only the outer trailer: nested stamps are payload
      Given the bytes "80 60 18 00 01 22 04 00 64 00 00 00 00 00 00 00 01 22 04 00 65 00 00 00 01 00 00 00 T0"
      When it is received as a datagram with its frames stored at rest
      Then it is accepted
      And the stored bytes are "80 40 18 00 01 22 04 00 64 00 00 00 00 00 00 00 01 22 04 00 65 00 00 00 01 00 00 00"
