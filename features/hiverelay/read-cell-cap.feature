@hiverelay
Feature: HiveRelay BCC v1, section 3: ReadCellCapV1
  ReadCellCapV1 is version 1, then 32-byte relay public key, 32-byte storage
  slot, 32-byte cell key, size class 1..5, and optional 32-byte expected blob
  hash. The three mandatory byte strings and a present expected hash are
  nonzero. "A ReadCellCapV1" is the value of positive/read-cell-cap-v1.bin
  (docs/hiverelay.md: labels read-cell-cap/..., size class 2, expected hash
  present).

  Rule: HR-RCAP-01 ReadCellCapV1 is version 1, relayPublicKey[32], storageSlot[32], cellKey[32], sizeClass u8 and an optional expectedCellBlobHash[32]

    Scenario: the positive vector, field by field
      Given the concatenation of:
        | field                | bytes                                              |
        | version              | 01                                                 |
        | relayPublicKey       | label "read-cell-cap/relay-public-key"             |
        | storageSlot          | label "read-cell-cap/storage-slot"                 |
        | cellKey              | label "read-cell-cap/cell-key"                     |
        | sizeClass            | 02                                                 |
        | expectedCellBlobHash | 01 + label "read-cell-cap/expected-cell-blob-hash" |
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the vector "positive/read-cell-cap-v1.bin"
      And the input is 131 bytes long

    Scenario: without the expected cell blob hash it is 99 bytes
      Given the concatenation of:
        | field                | bytes           |
        | version              | 01              |
        | relayPublicKey       | 32 times "\xaa" |
        | storageSlot          | 32 times "\xbb" |
        | cellKey              | 32 times "\xcc" |
        | sizeClass            | 05              |
        | expectedCellBlobHash | 00              |
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input

    Scenario: the committed positive vector decodes and re-encodes byte for byte
      Given the positive vector "positive/read-cell-cap-v1.bin"
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input

  Rule: HR-RCAP-02 A sizeClass outside 1..5 fails with BAD_ENCODING

    Scenario Outline: size class <class> is accepted
      Given a ReadCellCapV1 with size class <class>
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input

      Examples:
        | class |
        | 1     |
        | 3     |
        | 5     |

    Scenario Outline: size class <class> is out of range
      Given a ReadCellCapV1 with size class <class>
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-RCAP-02 with code "BAD_ENCODING"

      Examples:
        | class |
        | 0     |
        | 6     |
        | 255   |

    Scenario: the committed vector with its size class set to 06
      Given the positive vector "positive/read-cell-cap-v1.bin" with byte 97 set to 06
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-RCAP-02 with code "BAD_ENCODING"

  Rule: HR-RCAP-03 A relayPublicKey of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero relay public key
      Given a ReadCellCapV1 with relay public key zero
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-RCAP-03 with code "BAD_ENCODING"

    Scenario: the negative vector read-cell-cap-zero-relay-public-key
      Given the negative vector "negative/read-cell-cap-zero-relay-public-key.bin"
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-RCAP-03 with code "BAD_ENCODING"

    Scenario: a relay public key whose only nonzero byte is its first
      Given a ReadCellCapV1 with relay public key 01 + 31 zero bytes
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input

  Rule: HR-RCAP-04 A storageSlot of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero storage slot
      Given a ReadCellCapV1 with storage slot zero
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-RCAP-04 with code "BAD_ENCODING"

    Scenario: a storage slot whose only nonzero byte is its last
      Given a ReadCellCapV1 with storage slot 31 zero bytes + 80
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input

  Rule: HR-RCAP-05 A cellKey of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero cell key
      Given a ReadCellCapV1 with cell key zero
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-RCAP-05 with code "BAD_ENCODING"

    Scenario: a cell key of 32 bytes ff
      Given a ReadCellCapV1 with cell key 32 times "\xff"
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input

  Rule: HR-RCAP-06 A present expectedCellBlobHash of 32 zero bytes fails with BAD_ENCODING

    Scenario: a present zero expected cell blob hash
      Given a ReadCellCapV1 with expected cell blob hash zero
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-RCAP-06 with code "BAD_ENCODING"

    Scenario: an absent expected cell blob hash needs no bytes
      Given a ReadCellCapV1 with expected cell blob hash absent
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input

    Scenario: a zero expected hash inside a checkpoint's snapshot capability
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[0].expectedCellBlobHash is zero
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-RCAP-06 with code "BAD_ENCODING"
