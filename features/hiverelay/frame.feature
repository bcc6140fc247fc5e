@hiverelay
Feature: HiveRelay BCC v1, section 3: OpaqueChainFrameV1
  OpaqueChainFrameV1 is version 1; nonzero chain ID; sequence u64; optional
  previous frame hash; nonzero 32-byte transport verification key; 0..256
  opaque payloads each 0..262144 bytes; 0..16 ReadCellCapV1 values; optional
  OpaqueChainCheckpointV1; and a 64-byte transport signature. The previous
  hash is absent exactly when sequence is zero. Next capabilities are strictly
  sorted by (relayPublicKey, storageSlot). At least one payload or a
  checkpoint is required. "A genesis OpaqueChainFrameV1" and "a successor
  OpaqueChainFrameV1" are the values of positive/opaque-chain-frame-v1-genesis.bin
  and positive/opaque-chain-frame-v1-successor.bin.

  Rule: HR-FRAME-01 OpaqueChainFrameV1 is version 1, chainId[32], sequence u64, optional previousFrameHash[32], transportVerifyKey[32], payloads, next capabilities, optional checkpoint and transportSignature[64]

    Scenario: the genesis vector, field by field
      Given the concatenation of:
        | field              | bytes                                                                                                                                                                                                   |
        | version            | 01                                                                                                                                                                                                      |
        | chainId            | label "frame/chain-id"                                                                                                                                                                                  |
        | sequence           | 00 00 00 00 00 00 00 00                                                                                                                                                                                 |
        | previousFrameHash  | 00                                                                                                                                                                                                      |
        | transportVerifyKey | label "frame/transport-verify-key"                                                                                                                                                                      |
        | opaquePayloads     | 02 + 00 + fd 2c 01 + 300 bytes of label "frame/genesis/payload/1"                                                                                                                                       |
        | nextReadCellCaps   | 01 + 01 + label "frame/genesis/next-read-cap/0/relay-public-key" + label "frame/genesis/next-read-cap/0/storage-slot" + label "frame/genesis/next-read-cap/0/cell-key" + 05 + 01 + label "frame/genesis/next-read-cap/0/expected-cell-blob-hash" |
        | checkpoint         | 00                                                                                                                                                                                                      |
        | transportSignature | 64 bytes of label "frame/genesis/transport-signature"                                                                                                                                                   |
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the vector "positive/opaque-chain-frame-v1-genesis.bin"
      And the input is 576 bytes long

    Scenario: the successor vector, field by field
      Given the concatenation of:
        | field              | bytes                                                                                                                                                                                                       |
        | version            | 01                                                                                                                                                                                                          |
        | chainId            | label "frame/chain-id"                                                                                                                                                                                      |
        | sequence           | 00 00 00 00 00 00 00 01                                                                                                                                                                                     |
        | previousFrameHash  | 01 + label "frame/successor/previous-frame-hash"                                                                                                                                                            |
        | transportVerifyKey | label "frame/transport-verify-key"                                                                                                                                                                          |
        | opaquePayloads     | 00                                                                                                                                                                                                          |
        | nextReadCellCaps   | 02 + 01 + label "frame/successor/next-read-cap/0/relay-public-key" + label "frame/successor/next-read-cap/0/storage-slot" + label "frame/successor/next-read-cap/0/cell-key" + 01 + 00                   |
        | (second)           | 01 + label "frame/successor/next-read-cap/1/relay-public-key" + label "frame/successor/next-read-cap/1/storage-slot" + label "frame/successor/next-read-cap/1/cell-key" + 02 + 01 + label "frame/successor/next-read-cap/1/expected-cell-blob-hash" |
        | checkpoint         | 01 + the vector "positive/opaque-chain-checkpoint-v1.bin"                                                                                                                                                   |
        | transportSignature | 64 bytes of label "frame/successor/transport-signature"                                                                                                                                                     |
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the vector "positive/opaque-chain-frame-v1-successor.bin"
      And the input is 916 bytes long

  Rule: HR-FRAME-13 Each nextReadCellCaps entry is itself a canonical ReadCellCapV1: it obeys every ReadCellCapV1 rule, and one that breaks a rule fails the frame under that rule

    Scenario Outline: a next read capability obeys every ReadCellCapV1 rule: <field> <value>
      Given a successor OpaqueChainFrameV1
      And its nextReadCellCaps[<i>].<field> is <value>
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule <rule> with code "BAD_ENCODING"

      Examples:
        | i | field                | value | rule       |
        | 0 | version              | 2     | HR-CENC-10 |
        | 1 | version              | 255   | HR-CENC-10 |
        | 0 | sizeClass            | 6     | HR-RCAP-02 |
        | 1 | sizeClass            | 0     | HR-RCAP-02 |
        | 0 | relayPublicKey       | zero  | HR-RCAP-03 |
        | 0 | storageSlot          | zero  | HR-RCAP-04 |
        | 1 | cellKey              | zero  | HR-RCAP-05 |
        | 1 | expectedCellBlobHash | zero  | HR-RCAP-06 |

    Scenario: a genesis frame's single next capability obeys them too
      Given a genesis OpaqueChainFrameV1
      And its nextReadCellCaps has 1 elements
      And its nextReadCellCaps[0].cellKey is zero
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-RCAP-05 with code "BAD_ENCODING"

  Rule: HR-FRAME-14 A present checkpoint is itself a canonical OpaqueChainCheckpointV1: it obeys every checkpoint rule, and one that breaks a rule fails the frame under that rule

    Scenario: the checkpoint inside a frame obeys every checkpoint rule
      Given a successor OpaqueChainFrameV1
      And the elements 0 and 1 of its checkpoint.coveredFrontier are swapped
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-CKPT-03 with code "BAD_ENCODING"

    Scenario Outline: the checkpoint inside a frame: <field> <value>
      Given a successor OpaqueChainFrameV1
      And its checkpoint.<field> is <value>
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule <rule> with code "BAD_ENCODING"

      Examples:
        | field                                   | value | rule       |
        | version                                 | 2     | HR-CENC-10 |
        | coveredFrontier[0].chainId              | zero  | HR-CKPT-05 |
        | coveredFrontier[1].frameHash            | zero  | HR-CKPT-06 |
        | opaqueStateCommitment                   | zero  | HR-CKPT-07 |
        | snapshotPayloadHash                     | zero  | HR-CKPT-08 |
        | snapshotReadCaps[0].relayPublicKey      | zero  | HR-RCAP-03 |
        | snapshotReadCaps[1].sizeClass           | 6     | HR-RCAP-02 |

    Scenario: a checkpoint inside a frame with no frontier entry
      Given a successor OpaqueChainFrameV1
      And its checkpoint.coveredFrontier has 0 entries
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-CKPT-02 with code "BAD_ENCODING"

  Rule: HR-FRAME-02 A frame chainId of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero chain ID
      Given a genesis OpaqueChainFrameV1
      And its chainId is zero
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-02 with code "BAD_ENCODING"

  Rule: HR-FRAME-03 A frame at sequence 0 with a previous frame hash present fails with BAD_ENCODING

    Scenario: a genesis frame with a previous frame hash
      Given a genesis OpaqueChainFrameV1
      And its previousFrameHash is present
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-03 with code "BAD_ENCODING"

    Scenario: a successor frame moved to sequence 0
      Given a successor OpaqueChainFrameV1
      And its sequence is 0
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-03 with code "BAD_ENCODING"

  Rule: HR-FRAME-04 A frame at a nonzero sequence without a previous frame hash fails with BAD_ENCODING

    Scenario: the negative vector opaque-chain-frame-sequence-one-without-predecessor
      Given the negative vector "negative/opaque-chain-frame-sequence-one-without-predecessor.bin"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-04 with code "BAD_ENCODING"

    Scenario Outline: sequence <sequence> without a previous frame hash
      Given a genesis OpaqueChainFrameV1
      And its sequence is <sequence>
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-04 with code "BAD_ENCODING"

      Examples:
        | sequence |
        | 1        |
        | 2^56     |
        | 2^64-1   |

    Scenario Outline: sequence <sequence> with a previous frame hash
      Given a successor OpaqueChainFrameV1
      And its sequence is <sequence>
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

      Examples:
        | sequence |
        | 1        |
        | 2^64-1   |

  Rule: HR-FRAME-05 A transportVerifyKey of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero transport verification key
      Given a successor OpaqueChainFrameV1
      And its transportVerifyKey is zero
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-05 with code "BAD_ENCODING"

  Rule: HR-FRAME-06 A frame with more than 256 opaque payloads fails with BAD_ENCODING

    Scenario Outline: <n> payloads are accepted
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads has <n> payloads
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

      Examples:
        | n   |
        | 1   |
        | 256 |

    Scenario: 257 payloads are out of range
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads has 257 payloads
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-06 with code "BAD_ENCODING"

    Scenario: a payload count of 257 is out of range before the payloads are read
      Given a genesis OpaqueChainFrameV1
      And the count of its opaquePayloads is written as "fd 01 01"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-06 with code "BAD_ENCODING"

    Scenario: no payload at all, with a checkpoint
      Given a successor OpaqueChainFrameV1
      And its opaquePayloads is empty
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

  Rule: HR-FRAME-07 An opaque payload longer than 262144 bytes fails with BAD_ENCODING

    Scenario Outline: a payload of <n> bytes is accepted
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads[1] is <n> bytes
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

      Examples:
        | n      |
        | 0      |
        | 262144 |

    Scenario: a payload of 262145 bytes is out of range
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads[1] is 262145 bytes
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-07 with code "BAD_ENCODING"

    Scenario: a payload length of 262145 is out of range before the bytes are read
      Given a genesis OpaqueChainFrameV1
      And the length of its opaquePayloads[0] is written as "fe 01 00 04 00"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-07 with code "BAD_ENCODING"

  Rule: HR-FRAME-08 A frame with more than 16 next read capabilities fails with BAD_ENCODING

    Scenario Outline: <n> next read capabilities are accepted
      Given a genesis OpaqueChainFrameV1
      And its nextReadCellCaps has <n> elements
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

      Examples:
        | n  |
        | 0  |
        | 16 |

    Scenario: 17 next read capabilities are out of range
      Given a genesis OpaqueChainFrameV1
      And its nextReadCellCaps has 17 elements
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-08 with code "BAD_ENCODING"

  Rule: HR-FRAME-09 Next read capabilities are sorted by (relayPublicKey, storageSlot); one that sorts before its predecessor fails

    Scenario: the successor's two capabilities swapped
      Given a successor OpaqueChainFrameV1
      And the elements 0 and 1 of its nextReadCellCaps are swapped
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-09 with code "BAD_ENCODING"

    Scenario: the last of 16 sorted capabilities moved to the front
      Given a genesis OpaqueChainFrameV1
      And its nextReadCellCaps has 16 elements
      And the elements 0 and 15 of its nextReadCellCaps are swapped
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-09 with code "BAD_ENCODING"

  Rule: HR-FRAME-10 Two next read capabilities with equal (relayPublicKey, storageSlot) are duplicates and fail

    Scenario: equal relay key and storage slot
      Given a successor OpaqueChainFrameV1
      And its nextReadCellCaps[1].relayPublicKey equals its nextReadCellCaps[0].relayPublicKey
      And its nextReadCellCaps[1].storageSlot equals its nextReadCellCaps[0].storageSlot
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-10 with code "BAD_ENCODING"

  Rule: HR-FRAME-11 A frame with no payload and no checkpoint fails with BAD_ENCODING

    Scenario: a successor frame without its checkpoint
      Given a successor OpaqueChainFrameV1
      And its checkpoint is absent
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-11 with code "BAD_ENCODING"

    Scenario: a genesis frame without payloads
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads is empty
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-11 with code "BAD_ENCODING"

    Scenario: one empty payload is a payload
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads has 1 payloads
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

    Scenario: a genesis frame with both payloads and a checkpoint
      Given a genesis OpaqueChainFrameV1
      And its checkpoint is present
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

  Rule: HR-FRAME-12 Signature verification, sequence increment across two frames and chain continuity are higher-level composition checks, not codec checks

    Scenario: a signature of 64 zero bytes is no signature, yet the frame decodes
      Given a genesis OpaqueChainFrameV1
      And its transportSignature is zero
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

    Scenario: a frame at sequence 7 after no frame 6, naming a previous hash no frame has, decodes
      Given a successor OpaqueChainFrameV1
      And its sequence is 7
      And its previousFrameHash is label "no frame has this hash"
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

    Scenario: a successor whose transport verification key differs from the genesis frame's decodes
      Given a successor OpaqueChainFrameV1
      And its transportVerifyKey is label "another key"
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input
