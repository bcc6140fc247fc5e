@hiverelay
Feature: HiveRelay BCC v1, section 3: BlindCoreReadCapV1
  BlindCoreReadCapV1 is version 1; nonzero 32-byte core public key; nonzero
  32-byte block-encryption key; witnessed fork and length as u64; and a
  1..4096 byte witnessed signed head. "A BlindCoreReadCapV1" is the value of
  positive/blind-core-read-cap-v1.bin (fork 3, length 1000, a 300-byte head).

  Rule: HR-BCORE-01 BlindCoreReadCapV1 is version 1, corePublicKey[32], blockEncryptionKey[32], witnessedFork u64, witnessedLength u64 and a bounded witnessedSignedHead

    Scenario: the positive vector, field by field
      Given the concatenation of:
        | field               | bytes                                                                   |
        | version             | 01                                                                      |
        | corePublicKey       | label "blind-core-read-cap/core-public-key"                             |
        | blockEncryptionKey  | label "blind-core-read-cap/block-encryption-key"                        |
        | witnessedFork       | 00 00 00 00 00 00 00 03                                                 |
        | witnessedLength     | 00 00 00 00 00 00 03 e8                                                 |
        | witnessedSignedHead | fd 2c 01 + 300 bytes of label "blind-core-read-cap/witnessed-signed-head" |
      When it is decoded as BlindCoreReadCapV1
      Then the re-encoding equals the vector "positive/blind-core-read-cap-v1.bin"
      And the input is 384 bytes long

    Scenario Outline: witnessed fork <fork> and length <length>
      Given a BlindCoreReadCapV1
      And its witnessedFork is <fork>
      And its witnessedLength is <length>
      When it is decoded as BlindCoreReadCapV1
      Then the re-encoding equals the input

      Examples:
        | fork   | length |
        | 0      | 0      |
        | 2^64-1 | 2^53   |

  Rule: HR-BCORE-02 A corePublicKey of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero core public key
      Given a BlindCoreReadCapV1 with core public key zero
      When it is decoded as BlindCoreReadCapV1
      Then it is rejected by rule HR-BCORE-02 with code "BAD_ENCODING"

    Scenario: the negative vector blind-core-read-cap-zero-core-public-key
      Given the negative vector "negative/blind-core-read-cap-zero-core-public-key.bin"
      When it is decoded as BlindCoreReadCapV1
      Then it is rejected by rule HR-BCORE-02 with code "BAD_ENCODING"

  Rule: HR-BCORE-03 A blockEncryptionKey of 32 zero bytes fails with BAD_ENCODING

    Scenario: a zero block-encryption key
      Given a BlindCoreReadCapV1 with block encryption key zero
      When it is decoded as BlindCoreReadCapV1
      Then it is rejected by rule HR-BCORE-03 with code "BAD_ENCODING"

  Rule: HR-BCORE-04 A witnessedSignedHead of 0 or more than 4096 bytes fails with BAD_ENCODING

    Scenario Outline: a head of <n> bytes is accepted
      Given a BlindCoreReadCapV1 with witnessed signed head <n> bytes
      When it is decoded as BlindCoreReadCapV1
      Then the re-encoding equals the input

      Examples:
        | n    |
        | 1    |
        | 4096 |

    Scenario Outline: a head of <n> bytes is out of range
      Given a BlindCoreReadCapV1 with witnessed signed head <n> bytes
      When it is decoded as BlindCoreReadCapV1
      Then it is rejected by rule HR-BCORE-04 with code "BAD_ENCODING"

      Examples:
        | n    |
        | 0    |
        | 4097 |

    Scenario: a head length of 4097 is out of range before the bytes are read
      Given a BlindCoreReadCapV1
      And the length of its witnessedSignedHead is written as "fd 01 10"
      When it is decoded as BlindCoreReadCapV1
      Then it is rejected by rule HR-BCORE-04 with code "BAD_ENCODING"

  Rule: HR-BCORE-05 The relay never receives the block-encryption key or a complete BlindCoreReadCapV1

    Scenario: the capability carries the block-encryption key in clear, at bytes 33 to 64, so it is never for a relay
      Given a BlindCoreReadCapV1
      When it is decoded as BlindCoreReadCapV1
      Then bytes 33 to 64 of the re-encoding are label "blind-core-read-cap/block-encryption-key"

    Scenario: the catalog's declaration, bound by the format hash, says the key is never sent to a blind peer
      Given the registry vector "registry/client-composition-schema-catalog-v1.cenc"
      When the format artifact holding it is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
      And the input contains "blockEncryptionKey: 32 bytes // never sent to blind peer"
