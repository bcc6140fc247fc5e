@hiverelay
Feature: HiveRelay BCC v1, section 3: WriteCellCapV1
  WriteCellCapV1 is one canonical ReadCellCapV1, allocation epoch u32, then
  three 32-byte create, renew, and drop private keys. Each private key is
  nonzero and the three values are pairwise distinct. "A WriteCellCapV1" is
  the value of positive/write-cell-cap-v1.bin (size class 1, no expected hash,
  epoch 7).

  Rule: HR-WCAP-01 WriteCellCapV1 is one canonical ReadCellCapV1, allocationEpoch u32, createPrivateKey[32], renewPrivateKey[32] and dropPrivateKey[32]

    Scenario: the positive vector, field by field
      Given the concatenation of:
        | field            | bytes                                                                                                                                                          |
        | readCap          | 01 + label "write-cell-cap/read-cap/relay-public-key" + label "write-cell-cap/read-cap/storage-slot" + label "write-cell-cap/read-cap/cell-key" + 01 + 00 |
        | allocationEpoch  | 00 00 00 07                                                                                                                                                    |
        | createPrivateKey | label "write-cell-cap/create-private-key"                                                                                                                      |
        | renewPrivateKey  | label "write-cell-cap/renew-private-key"                                                                                                                       |
        | dropPrivateKey   | label "write-cell-cap/drop-private-key"                                                                                                                        |
      When it is decoded as WriteCellCapV1
      Then the re-encoding equals the vector "positive/write-cell-cap-v1.bin"
      And the input is 199 bytes long

    Scenario Outline: allocation epoch <epoch>
      Given a WriteCellCapV1 with allocationEpoch <epoch>
      When it is decoded as WriteCellCapV1
      Then the re-encoding equals the input

      Examples:
        | epoch  |
        | 0      |
        | 2^32-1 |

    Scenario: the read capability inside may carry an expected hash
      Given a WriteCellCapV1 with readCap.expectedCellBlobHash present
      When it is decoded as WriteCellCapV1
      Then the re-encoding equals the input
      And the input is 231 bytes long

    Scenario Outline: the embedded read capability obeys every ReadCellCapV1 rule: <field> <value>
      Given a WriteCellCapV1
      And its readCap.<field> is <value>
      When it is decoded as WriteCellCapV1
      Then it is rejected by rule <rule> with code "BAD_ENCODING"

      Examples:
        | field                | value   | rule       |
        | sizeClass            | 6       | HR-RCAP-02 |
        | relayPublicKey       | zero    | HR-RCAP-03 |
        | storageSlot          | zero    | HR-RCAP-04 |
        | cellKey              | zero    | HR-RCAP-05 |
        | expectedCellBlobHash | zero    | HR-RCAP-06 |

  Rule: HR-WCAP-02 A createPrivateKey of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero create private key
      Given a WriteCellCapV1 with create private key zero
      When it is decoded as WriteCellCapV1
      Then it is rejected by rule HR-WCAP-02 with code "BAD_ENCODING"

  Rule: HR-WCAP-03 A renewPrivateKey of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero renew private key
      Given a WriteCellCapV1 with renew private key zero
      When it is decoded as WriteCellCapV1
      Then it is rejected by rule HR-WCAP-03 with code "BAD_ENCODING"

  Rule: HR-WCAP-04 A dropPrivateKey of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero drop private key
      Given a WriteCellCapV1 with drop private key zero
      When it is decoded as WriteCellCapV1
      Then it is rejected by rule HR-WCAP-04 with code "BAD_ENCODING"

  Rule: HR-WCAP-05 The three private keys are pairwise distinct

    Scenario Outline: <second> equal to <first>
      Given a WriteCellCapV1
      And its <second> equals its <first>
      When it is decoded as WriteCellCapV1
      Then it is rejected by rule HR-WCAP-05 with code "BAD_ENCODING"

      Examples:
        | first            | second          |
        | createPrivateKey | renewPrivateKey |
        | createPrivateKey | dropPrivateKey  |
        | renewPrivateKey  | dropPrivateKey  |

    Scenario: the negative vector write-cell-cap-duplicate-private-keys
      Given the negative vector "negative/write-cell-cap-duplicate-private-keys.bin"
      When it is decoded as WriteCellCapV1
      Then it is rejected by rule HR-WCAP-05 with code "BAD_ENCODING"

    Scenario: keys that differ in their last byte only are distinct
      Given a WriteCellCapV1
      And its createPrivateKey is 31 times "\x11" + 01
      And its renewPrivateKey is 31 times "\x11" + 02
      And its dropPrivateKey is 31 times "\x11" + 03
      When it is decoded as WriteCellCapV1
      Then the re-encoding equals the input
