@hiverelay
Feature: HiveRelay BCC v1, section 3: OpaqueChainCheckpointV1
  OpaqueChainCheckpointV1 is version 1; a 1..1024 array of frontier entries
  (chainId[32], sequence u64, frameHash[32]); two nonzero 32-byte commitments;
  and a 1..16 array of ReadCellCapV1. Frontier entries are strictly sorted by
  chain ID, snapshot capabilities by (relayPublicKey, storageSlot). "An
  OpaqueChainCheckpointV1" is the value of positive/opaque-chain-checkpoint-v1.bin:
  three frontier entries (sequences 0, 1 and 2^32) and two capabilities, sorted.

  Rule: HR-CKPT-01 OpaqueChainCheckpointV1 is version 1, the frontier array, opaqueStateCommitment[32], snapshotPayloadHash[32] and the snapshot capability array

    Scenario: the positive vector, field by field
      Given the concatenation of:
        | field                          | bytes                                                                                                                                                                       |
        | version                        | 01                                                                                                                                                                          |
        | coveredFrontier count          | 03                                                                                                                                                                          |
        | coveredFrontier[0]             | label "checkpoint/frontier/2/chain-id" + 00 00 00 01 00 00 00 00 + label "checkpoint/frontier/2/frame-hash"                                                               |
        | coveredFrontier[1]             | label "checkpoint/frontier/1/chain-id" + 00 00 00 00 00 00 00 01 + label "checkpoint/frontier/1/frame-hash"                                                               |
        | coveredFrontier[2]             | label "checkpoint/frontier/0/chain-id" + 00 00 00 00 00 00 00 00 + label "checkpoint/frontier/0/frame-hash"                                                               |
        | opaqueStateCommitment          | label "checkpoint/opaque-state-commitment"                                                                                                                                  |
        | snapshotPayloadHash            | label "checkpoint/snapshot-payload-hash"                                                                                                                                    |
        | snapshotReadCaps count         | 02                                                                                                                                                                          |
        | snapshotReadCaps[0]            | 01 + label "checkpoint/snapshot-read-cap/0/relay-public-key" + label "checkpoint/snapshot-read-cap/0/storage-slot" + label "checkpoint/snapshot-read-cap/0/cell-key" + 03 + 01 + label "checkpoint/snapshot-read-cap/0/expected-cell-blob-hash" |
        | snapshotReadCaps[1]            | 01 + label "checkpoint/snapshot-read-cap/1/relay-public-key" + label "checkpoint/snapshot-read-cap/1/storage-slot" + label "checkpoint/snapshot-read-cap/1/cell-key" + 04 + 00 |
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the vector "positive/opaque-chain-checkpoint-v1.bin"
      And the input is 513 bytes long

    Scenario: the smallest checkpoint: one frontier entry and one capability
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier has 1 entries
      And its snapshotReadCaps has 1 elements
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the input

  Rule: HR-CKPT-12 Each snapshot capability is itself a canonical ReadCellCapV1: it obeys every ReadCellCapV1 rule, and one that breaks a rule fails the checkpoint under that rule

    Scenario Outline: a snapshot capability obeys every ReadCellCapV1 rule: <field> <value>
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[<i>].<field> is <value>
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule <rule> with code "BAD_ENCODING"

      Examples:
        | i | field                | value | rule       |
        | 0 | version              | 2     | HR-CENC-10 |
        | 1 | version              | 0     | HR-CENC-10 |
        | 0 | sizeClass            | 6     | HR-RCAP-02 |
        | 1 | sizeClass            | 0     | HR-RCAP-02 |
        | 0 | relayPublicKey       | zero  | HR-RCAP-03 |
        | 0 | storageSlot          | zero  | HR-RCAP-04 |
        | 1 | cellKey              | zero  | HR-RCAP-05 |
        | 0 | expectedCellBlobHash | zero  | HR-RCAP-06 |

    Scenario: a snapshot capability that is itself canonical needs nothing more
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[1].sizeClass is 5
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the input

  Rule: HR-CKPT-02 A checkpoint with 0 or more than 1024 frontier entries fails with BAD_ENCODING

    Scenario Outline: <n> frontier entries are accepted
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier has <n> entries
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the input

      Examples:
        | n    |
        | 1    |
        | 253  |
        | 1024 |

    Scenario Outline: <n> frontier entries are out of range
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier has <n> entries
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-02 with code "BAD_ENCODING"

      Examples:
        | n    |
        | 0    |
        | 1025 |

    Scenario: a frontier count of 1025 is out of range even when the entries are missing
      Given an OpaqueChainCheckpointV1
      And the count of its coveredFrontier is written as "fd 01 04"
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-02 with code "BAD_ENCODING"

  Rule: HR-CKPT-03 Frontier entries are sorted by chain ID; an entry that sorts before its predecessor fails

    Scenario: the negative vector opaque-chain-checkpoint-unsorted-frontier
      Given the negative vector "negative/opaque-chain-checkpoint-unsorted-frontier.bin"
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-03 with code "BAD_ENCODING"

    Scenario Outline: frontier entries <i> and <j> swapped
      Given an OpaqueChainCheckpointV1
      And the elements <i> and <j> of its coveredFrontier are swapped
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-03 with code "BAD_ENCODING"

      Examples:
        | i | j |
        | 0 | 1 |
        | 1 | 2 |
        | 0 | 2 |

    Scenario: chain IDs that differ only in their last byte, ascending
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier has 2 entries
      And its coveredFrontier[0].chainId is 31 times "\x55" + 01
      And its coveredFrontier[1].chainId is 31 times "\x55" + 02
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the input

    Scenario: chain IDs that differ only in their last byte, descending
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier has 2 entries
      And its coveredFrontier[0].chainId is 31 times "\x55" + 02
      And its coveredFrontier[1].chainId is 31 times "\x55" + 01
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-03 with code "BAD_ENCODING"

  Rule: HR-CKPT-04 Two frontier entries with equal chain IDs are duplicates and fail

    Scenario: the last two entries with one chain ID
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier[2].chainId equals its coveredFrontier[1].chainId
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-04 with code "BAD_ENCODING"

    Scenario: two entries equal in every field
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier[1] equals its coveredFrontier[0]
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-04 with code "BAD_ENCODING"

  Rule: HR-CKPT-05 A frontier chain ID of 32 zero bytes fails with BAD_ENCODING

    Scenario Outline: a zero chain ID in frontier entry <i>
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier[<i>].chainId is zero
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-05 with code "BAD_ENCODING"

      Examples:
        | i |
        | 0 |
        | 2 |

  Rule: HR-CKPT-06 A frontier frame hash of 32 zero bytes fails with BAD_ENCODING

    Scenario Outline: a zero frame hash in frontier entry <i>
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier[<i>].frameHash is zero
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-06 with code "BAD_ENCODING"

      Examples:
        | i |
        | 0 |
        | 2 |

    Scenario: a frontier sequence of zero is allowed (it is not a hash)
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier[0].sequence is 0
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the input

  Rule: HR-CKPT-07 An opaqueStateCommitment of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero opaque state commitment
      Given an OpaqueChainCheckpointV1 with opaque state commitment zero
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-07 with code "BAD_ENCODING"

  Rule: HR-CKPT-08 A snapshotPayloadHash of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero snapshot payload hash
      Given an OpaqueChainCheckpointV1 with snapshot payload hash zero
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-08 with code "BAD_ENCODING"

  Rule: HR-CKPT-09 A checkpoint with 0 or more than 16 snapshot read capabilities fails with BAD_ENCODING

    Scenario Outline: <n> snapshot read capabilities are accepted
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps has <n> elements
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the input

      Examples:
        | n  |
        | 1  |
        | 16 |

    Scenario Outline: <n> snapshot read capabilities are out of range
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps has <n> elements
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-09 with code "BAD_ENCODING"

      Examples:
        | n  |
        | 0  |
        | 17 |

  Rule: HR-CKPT-10 Snapshot read capabilities are sorted by (relayPublicKey, storageSlot); one that sorts before its predecessor fails

    Scenario: the two capabilities swapped
      Given an OpaqueChainCheckpointV1
      And the elements 0 and 1 of its snapshotReadCaps are swapped
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-10 with code "BAD_ENCODING"

    Scenario: the order is by relay key first: a greater storage slot does not repair a smaller relay key
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[0].relayPublicKey is 02 + 31 zero bytes
      And its snapshotReadCaps[0].storageSlot is 01 + 31 zero bytes
      And its snapshotReadCaps[1].relayPublicKey is 01 + 31 zero bytes
      And its snapshotReadCaps[1].storageSlot is ff + 31 zero bytes
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-10 with code "BAD_ENCODING"

    Scenario: the cell key and size class take no part in the order
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[0].cellKey is 32 times "\xff"
      And its snapshotReadCaps[1].cellKey is 01 + 31 zero bytes
      And its snapshotReadCaps[0].sizeClass is 5
      And its snapshotReadCaps[1].sizeClass is 1
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the input

  Rule: HR-CKPT-11 Two snapshot read capabilities with equal (relayPublicKey, storageSlot) are duplicates and fail

    Scenario: equal relay key and storage slot, different cell keys and classes
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[1].relayPublicKey equals its snapshotReadCaps[0].relayPublicKey
      And its snapshotReadCaps[1].storageSlot equals its snapshotReadCaps[0].storageSlot
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-11 with code "BAD_ENCODING"

    Scenario: the same capability twice
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[1] equals its snapshotReadCaps[0]
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-11 with code "BAD_ENCODING"
