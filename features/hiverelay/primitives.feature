@hiverelay
Feature: HiveRelay BCC v1, section 2: canonical primitives
  Every record of the authority is built from the same primitives: fixed-width
  big-endian integers, fixed byte strings, bounded byte strings and arrays with
  the canonical shortest compact-uint length or count, and optionals tagged 0
  or 1. Every failure carries the code BAD_ENCODING. The inputs below are
  built by the steps' own encoder; "the input" is what the When step sends.

  Rule: HR-CENC-01 Fields are encoded in declaration order with no alignment or implicit values

    Scenario: a ReadCellCapV1 is its fields back to back, in declaration order
      Given the concatenation of:
        | field                | bytes                                       |
        | version              | 01                                          |
        | relayPublicKey       | label "read-cell-cap/relay-public-key"        |
        | storageSlot          | label "read-cell-cap/storage-slot"            |
        | cellKey              | label "read-cell-cap/cell-key"                |
        | sizeClass            | 02                                          |
        | expectedCellBlobHash | 01 + label "read-cell-cap/expected-cell-blob-hash" |
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input
      And the input equals the vector "positive/read-cell-cap-v1.bin"

    Scenario: an absent optional is still written, as its tag 00
      Given a ReadCellCapV1 with expectedCellBlobHash absent
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input
      And the input is 99 bytes long

    Scenario: an absent optional whose tag is left out is not implied: the record is truncated
      Given a ReadCellCapV1 with expectedCellBlobHash absent
      And the last byte of the input is removed
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

    Scenario: the allocation epoch follows the 99-byte read capability at byte 99, unaligned
      Given the concatenation of:
        | field            | bytes                                            |
        | readCap          | 01 + label "write-cell-cap/read-cap/relay-public-key" + label "write-cell-cap/read-cap/storage-slot" + label "write-cell-cap/read-cap/cell-key" + 01 + 00 |
        | allocationEpoch  | 00 00 00 07                                      |
        | createPrivateKey | label "write-cell-cap/create-private-key"          |
        | renewPrivateKey  | label "write-cell-cap/renew-private-key"           |
        | dropPrivateKey   | label "write-cell-cap/drop-private-key"            |
      When it is decoded as WriteCellCapV1
      Then the re-encoding equals the input
      And the input equals the vector "positive/write-cell-cap-v1.bin"

    Scenario: a padding byte that aligns the allocation epoch to byte 100 is read as data
      Given the concatenation of:
        | field            | bytes                                            |
        | readCap          | 01 + label "write-cell-cap/read-cap/relay-public-key" + label "write-cell-cap/read-cap/storage-slot" + label "write-cell-cap/read-cap/cell-key" + 01 + 00 |
        | padding          | 00                                               |
        | allocationEpoch  | 00 00 00 07                                      |
        | createPrivateKey | label "write-cell-cap/create-private-key"          |
        | renewPrivateKey  | label "write-cell-cap/renew-private-key"           |
        | dropPrivateKey   | label "write-cell-cap/drop-private-key"            |
      # read as: epoch 0, every key shifted by one byte, one byte left over
      When it is decoded as WriteCellCapV1
      Then it is rejected by rule HR-CENC-12 with code "BAD_ENCODING"

  Rule: HR-CENC-02 u8, u16, u32 and u64 are fixed-width unsigned big-endian integers

    Scenario: the format artifact's u16be and u64be header fields are big-endian
      Given the concatenation of:
        | field               | bytes                   |
        | magic               | "HRBCCF01"              |
        | authorityVersion    | 00 01                   |
        | formatMajor         | 00 01                   |
        | formatMinor         | 00 00                   |
        | specLength          | 00 00 00 00 00 00 1f 31 |
        | schemaCatalogLength | 00 00 00 00 00 00 05 bd |
        | specBytes           | the spec                |
        | schemaCatalogBytes  | the schema catalog      |
      When the format artifact is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"

    Scenario: authorityVersion written little-endian is 256, not 1
      Given the reference format artifact
      And byte 8 of the input is set to 01
      And byte 9 of the input is set to 00
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-03 with code "BAD_ENCODING"

    Scenario: specLength written little-endian is far above 1 MiB
      Given the reference format artifact
      And its specLength is 0x311f000000000000
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-07 with code "BAD_ENCODING"

    Scenario: a manifest count written little-endian announces 16777216 rows
      Given a vector manifest of the paths "a.bin"
      And byte 0 of the input is set to 01
      And byte 3 of the input is set to 00
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-11

    Scenario: a frontier sequence is a u64be: 2^32 is 00 00 00 01 00 00 00 00
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier[0].sequence is 2^32
      When it is decoded as OpaqueChainCheckpointV1
      Then bytes 34 to 41 of the re-encoding are 00 00 00 01 00 00 00 00

  Rule: HR-CENC-03 Fixed byte strings have no length prefix

    Scenario: 32-byte keys follow each other without length prefixes
      Given the concatenation of:
        | field                | bytes           |
        | version              | 01              |
        | relayPublicKey       | 32 times "\x01" |
        | storageSlot          | 32 times "\x02" |
        | cellKey              | 32 times "\x03" |
        | sizeClass            | 01              |
        | expectedCellBlobHash | 00              |
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input

    Scenario: a length prefix before a fixed key shifts every field after it
      Given the concatenation of:
        | field                | bytes           |
        | version              | 01              |
        | a length prefix      | 20              |
        | relayPublicKey       | 32 times "\x01" |
        | storageSlot          | 32 times "\x02" |
        | cellKey              | 32 times "\x03" |
        | sizeClass            | 01              |
        | expectedCellBlobHash | 00              |
      # read as: relay key 20 01.., slot 01 02.., cell key 02 03.., size class 03,
      # optional tag 01, and then only one byte where 32 are needed
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

  Rule: HR-CENC-04 A bounded byte string is the canonical shortest compact-uint length followed by exactly that many bytes

    Scenario Outline: a witnessed signed head of <n> bytes, length written "<written>"
      Given a BlindCoreReadCapV1 with witnessedSignedHead <n> bytes
      And the length of its witnessedSignedHead is written as "<written>"
      When it is decoded as BlindCoreReadCapV1
      Then the re-encoding equals the input

      Examples:
        | n    | written  |
        | 1    | 01       |
        | 252  | fc       |
        | 253  | fd fd 00 |
        | 300  | fd 2c 01 |
        | 4096 | fd 00 10 |

    Scenario: a length one more than the bytes that follow is truncation
      Given a BlindCoreReadCapV1
      And the length of its witnessedSignedHead is written as "fd 2d 01"
      When it is decoded as BlindCoreReadCapV1
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

    Scenario: a length one less than the bytes that follow leaves a trailing byte
      Given a BlindCoreReadCapV1
      And the length of its witnessedSignedHead is written as "fd 2b 01"
      When it is decoded as BlindCoreReadCapV1
      Then it is rejected by rule HR-CENC-12 with code "BAD_ENCODING"

  Rule: HR-CENC-05 An array is the canonical shortest compact-uint count followed by exactly that many elements

    Scenario Outline: a frame with <n> opaque payloads, count written "<written>"
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads has <n> payloads
      And the count of its opaquePayloads is written as "<written>"
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

      Examples:
        | n   | written  |
        | 1   | 01       |
        | 252 | fc       |
        | 253 | fd fd 00 |
        | 256 | fd 00 01 |

    Scenario: a count of 8 frontier entries needs 576 bytes where 511 remain
      Given an OpaqueChainCheckpointV1
      And the count of its coveredFrontier is written as "08"
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

  Rule: HR-CENC-06 A compact uint is one byte for 0..252, 0xfd and a u16 LE, 0xfe and a u32 LE, or 0xff and a u64 LE, in the shortest form

    Scenario Outline: a payload of <n> bytes has the length form "<written>"
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads[1] is <n> bytes
      And the length of its opaquePayloads[1] is written as "<written>"
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

      Examples:
        | n      | written        |
        | 0      | 00             |
        | 252    | fc             |
        | 253    | fd fd 00       |
        | 65535  | fd ff ff       |
        | 65536  | fe 00 00 01 00 |
        | 262144 | fe 00 00 04 00 |

    Scenario: the 0xff form of 2^32 is canonical: the length is read, and then out of range
      Given a genesis OpaqueChainFrameV1
      And the length of its opaquePayloads[1] is written as "ff 00 00 00 00 01 00 00 00"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-07 with code "BAD_ENCODING"

  Rule: HR-CENC-07 An overlong compact uint fails closed

    Scenario Outline: the length <value> written "<written>" is overlong
      Given a genesis OpaqueChainFrameV1
      And the length of its opaquePayloads[1] is written as "<written>"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-CENC-07 with code "BAD_ENCODING"

      Examples:
        | value      | written                    |
        | 0          | fd 00 00                   |
        | 252        | fd fc 00                   |
        | 253        | fe fd 00 00 00             |
        | 65535      | fe ff ff 00 00             |
        | 0          | ff 00 00 00 00 00 00 00 00 |
        | 65536      | ff 00 00 01 00 00 00 00 00 |
        | 4294967295 | ff ff ff ff ff 00 00 00 00 |

    Scenario: a payload of 252 bytes whose length is written in the 0xfd form, its only defect
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads[1] is 252 bytes
      And the length of its opaquePayloads[1] is written as "fd fc 00"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-CENC-07 with code "BAD_ENCODING"

    Scenario: a checkpoint whose frontier count 252 is written in the 0xfd form
      Given the input bytes "01 fd fc 00"
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CENC-07 with code "BAD_ENCODING"

    Scenario: an overlong array count fails closed
      Given an OpaqueChainCheckpointV1
      And the count of its coveredFrontier is written as "fd 03 00"
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CENC-07 with code "BAD_ENCODING"

    Scenario: an overlong catalog declaration length fails closed
      Given the reference schema catalog
      And the length of its entries[1].declaration is written as "fd 70 00"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CENC-07 with code "BAD_ENCODING"

  Rule: HR-CENC-08 A value above 2^53-1 fails closed: a compact uint always, a fixed u64 under reading HR-READ-12's alternative

    Scenario Outline: the length <value> fails as above the safe integer range
      Given a genesis OpaqueChainFrameV1
      And the length of its opaquePayloads[1] is written as "<written>"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-CENC-08 with code "BAD_ENCODING"

      Examples:
        | value  | written                    |
        | 2^53   | ff 00 00 00 00 00 00 20 00 |
        | 2^53+1 | ff 01 00 00 00 00 00 20 00 |
        | 2^64-1 | ff ff ff ff ff ff ff ff ff |

    Scenario: the length 2^53-1 is safe: it is read, and then out of range
      Given a genesis OpaqueChainFrameV1
      And the length of its opaquePayloads[1] is written as "ff ff ff ff ff ff ff 1f 00"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-07 with code "BAD_ENCODING"

    Scenario: an array count of 2^53 fails as above the safe integer range
      Given an OpaqueChainCheckpointV1
      And the count of its coveredFrontier is written as "ff 00 00 00 00 00 00 20 00"
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CENC-08 with code "BAD_ENCODING"

    @reading:HR-READ-12
    Scenario Outline: a fixed u64 <field> of <value> decodes: the bound is read as binding compact uints
      Given a <schema>
      And its <field> is <value>
      When it is decoded as <schema>
      Then the re-encoding equals the input

      Examples:
        | schema                  | field                       | value  |
        | BlindCoreReadCapV1      | witnessedFork               | 2^53   |
        | BlindCoreReadCapV1      | witnessedLength             | 2^53+1 |
        | OpaqueChainCheckpointV1 | coveredFrontier[0].sequence | 2^64-1 |

    @reading:HR-READ-12=fixed-u64-within-safe-range
    Scenario Outline: under reading fixed-u64-within-safe-range, a fixed u64 <field> of <value> fails as above the safe integer range
      Given a <schema>
      And its <field> is <value>
      When it is decoded as <schema>
      Then it is rejected by rule HR-CENC-08 with code "BAD_ENCODING"

      Examples:
        | schema                  | field                       | value  |
        | BlindCoreReadCapV1      | witnessedFork               | 2^53   |
        | BlindCoreReadCapV1      | witnessedLength             | 2^53+1 |
        | OpaqueChainCheckpointV1 | coveredFrontier[0].sequence | 2^64-1 |

    Scenario: a fixed u64 of 2^53-1 decodes whatever reading HR-READ-12 takes
      Given a BlindCoreReadCapV1
      And its witnessedFork is 2^53-1
      When it is decoded as BlindCoreReadCapV1
      Then the re-encoding equals the input

  Rule: HR-CENC-09 An optional is one byte 0 for absent or 1 followed by its value; every other tag fails closed

    Scenario Outline: the expected cell blob hash <state>
      Given a ReadCellCapV1 with expectedCellBlobHash <state>
      When it is decoded as ReadCellCapV1
      Then the re-encoding equals the input

      Examples:
        | state   |
        | absent  |
        | present |

    Scenario Outline: an optional tag <tag> fails closed
      Given a ReadCellCapV1
      And the tag of its expectedCellBlobHash is written as "<tag>"
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-CENC-09 with code "BAD_ENCODING"

      Examples:
        | tag |
        | 02  |
        | 80  |
        | ff  |

    Scenario: a previous frame hash tag 02 fails closed
      Given a successor OpaqueChainFrameV1
      And the tag of its previousFrameHash is written as "02"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-CENC-09 with code "BAD_ENCODING"

    Scenario: a checkpoint tag 02 fails closed
      Given a successor OpaqueChainFrameV1
      And the tag of its checkpoint is written as "02"
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-CENC-09 with code "BAD_ENCODING"

  Rule: HR-CENC-10 An unknown version fails with BAD_ENCODING

    Scenario Outline: <schema> with <field> <value>
      Given a <schema>
      And its <field> is <value>
      When it is decoded as <schema>
      Then it is rejected by rule HR-CENC-10 with code "BAD_ENCODING"

      Examples:
        | schema                  | field                       | value |
        | ReadCellCapV1           | version                     | 0     |
        | ReadCellCapV1           | version                     | 2     |
        | WriteCellCapV1          | readCap.version             | 2     |
        | OpaqueChainCheckpointV1 | version                     | 2     |
        | OpaqueChainCheckpointV1 | snapshotReadCaps[1].version | 0     |
        | OpaqueChainFrameV1      | version                     | 2     |
        | OpaqueChainFrameV1      | nextReadCellCaps[0].version | 2     |
        | BlindCoreReadCapV1      | version                     | 255   |

    Scenario: a CellBlobV1 with formatVersion 2
      Given a CellBlobV1 of class 1
      And its formatVersion is 2
      When it is decoded as CellBlobV1 of class 1
      Then it is rejected by rule HR-CENC-10 with code "BAD_ENCODING"

    Scenario: the checkpoint inside a frame with version 0
      Given a successor OpaqueChainFrameV1
      And its checkpoint.version is 0
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-CENC-10 with code "BAD_ENCODING"

  Rule: HR-CENC-11 Truncated input fails with BAD_ENCODING

    Scenario Outline: <schema> without its last byte
      Given a <schema>
      And the last byte of the input is removed
      When it is decoded as <schema>
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

      Examples:
        | schema                  |
        | ReadCellCapV1           |
        | WriteCellCapV1          |
        | OpaqueChainCheckpointV1 |
        | OpaqueChainFrameV1      |
        | BlindCoreReadCapV1      |

    Scenario Outline: <schema> of no bytes
      Given the input bytes ""
      When it is decoded as <schema>
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

      Examples:
        | schema                  |
        | ReadCellCapV1           |
        | WriteCellCapV1          |
        | OpaqueChainCheckpointV1 |
        | OpaqueChainFrameV1      |
        | BlindCoreReadCapV1      |

    Scenario Outline: <schema> cut to its first <n> bytes
      Given a <schema>
      And the input is cut to <n> bytes
      When it is decoded as <schema>
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

      Examples:
        | schema                  | n   |
        | ReadCellCapV1           | 1   |
        | ReadCellCapV1           | 98  |
        | WriteCellCapV1          | 101 |
        | OpaqueChainCheckpointV1 | 2   |
        | OpaqueChainFrameV1      | 76  |
        | OpaqueChainFrameV1      | 80  |
        | BlindCoreReadCapV1      | 82  |

    Scenario: a frontier count of 1024 with 3 entries present
      Given an OpaqueChainCheckpointV1
      And the count of its coveredFrontier is written as "fd 00 04"
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

    Scenario: a catalog whose last byte is missing
      Given the reference schema catalog
      And the last byte of the input is removed
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

  Rule: HR-CENC-12 Bytes after a complete top-level record fail with BAD_ENCODING

    Scenario Outline: <schema> followed by the byte <byte>
      Given a <schema>
      And <byte> is appended to the input
      When it is decoded as <schema>
      Then it is rejected by rule HR-CENC-12 with code "BAD_ENCODING"

      Examples:
        | schema                  | byte |
        | ReadCellCapV1           | 00   |
        | WriteCellCapV1          | 00   |
        | OpaqueChainCheckpointV1 | 01   |
        | OpaqueChainFrameV1      | 00   |
        | BlindCoreReadCapV1      | ff   |

    Scenario: a ReadCellCapV1 followed by a second one
      Given a ReadCellCapV1
      And the vector "positive/read-cell-cap-v1.bin" is appended to the input
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-CENC-12 with code "BAD_ENCODING"

    Scenario: a schema catalog followed by a byte, inside the format artifact
      Given the reference schema catalog
      And 00 is appended to the input
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CENC-12 with code "BAD_ENCODING"

  Rule: HR-CENC-13 Out-of-range values fail with BAD_ENCODING

    Scenario Outline: <schema> with <field> <value> is out of range
      Given a <schema>
      And its <field> is <value>
      When it is decoded as <schema>
      Then it is rejected by rule <rule> with code "BAD_ENCODING"

      Examples:
        | schema                  | field                  | value        | rule        |
        | ReadCellCapV1           | sizeClass              | 6            | HR-RCAP-02  |
        | WriteCellCapV1          | readCap.sizeClass      | 0            | HR-RCAP-02  |
        | OpaqueChainCheckpointV1 | coveredFrontier        | empty        | HR-CKPT-02  |
        | OpaqueChainCheckpointV1 | snapshotReadCaps       | empty        | HR-CKPT-09  |
        | OpaqueChainFrameV1      | opaquePayloads[1]      | 262145 bytes | HR-FRAME-07 |
        | BlindCoreReadCapV1      | witnessedSignedHead    | empty        | HR-BCORE-04 |
        | BlindCoreReadCapV1      | witnessedSignedHead    | 4097 bytes   | HR-BCORE-04 |

    Scenario Outline: <schema> with <n> <array> is out of range
      Given a <schema>
      And its <array> has <n> elements
      When it is decoded as <schema>
      Then it is rejected by rule <rule> with code "BAD_ENCODING"

      Examples:
        | schema                  | array            | n    | rule        |
        | OpaqueChainCheckpointV1 | coveredFrontier  | 1025 | HR-CKPT-02  |
        | OpaqueChainCheckpointV1 | snapshotReadCaps | 17   | HR-CKPT-09  |
        | OpaqueChainFrameV1      | opaquePayloads   | 257  | HR-FRAME-06 |
        | OpaqueChainFrameV1      | nextReadCellCaps | 17   | HR-FRAME-08 |

  Rule: HR-CENC-14 Non-canonical encodings fail with BAD_ENCODING

    Scenario Outline: the <what> of <path> written "<written>" is not canonical
      Given a <schema>
      And the <what> of its <path> is written as "<written>"
      When it is decoded as <schema>
      Then it is rejected by rule <rule> with code "BAD_ENCODING"

      Examples:
        | schema                  | what   | path                 | written  | rule       |
        | OpaqueChainFrameV1      | length | opaquePayloads[0]    | fd 00 00 | HR-CENC-07 |
        | OpaqueChainFrameV1      | count  | nextReadCellCaps     | fd 01 00 | HR-CENC-07 |
        | OpaqueChainCheckpointV1 | count  | snapshotReadCaps     | fe 02 00 00 00 | HR-CENC-07 |
        | ReadCellCapV1           | tag    | expectedCellBlobHash | 02       | HR-CENC-09 |

    Scenario: frontier entries out of order are not the canonical encoding of the set
      Given an OpaqueChainCheckpointV1
      And the elements 0 and 2 of its coveredFrontier are swapped
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-03 with code "BAD_ENCODING"

    Scenario: a previous frame hash at sequence 0 is not the canonical genesis frame
      Given a genesis OpaqueChainFrameV1
      And its previousFrameHash is present
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-03 with code "BAD_ENCODING"

    Scenario: a missing previous frame hash at sequence 1 is not a canonical successor
      Given a successor OpaqueChainFrameV1
      And its previousFrameHash is absent
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-04 with code "BAD_ENCODING"

  Rule: HR-CENC-15 Unknown versions, truncation, trailing bytes, out-of-range values and non-canonical encodings fail with the code BAD_ENCODING

    Scenario: a record failure
      Given the negative vector "negative/read-cell-cap-zero-relay-public-key.bin"
      When it is decoded as ReadCellCapV1
      Then it is rejected with code "BAD_ENCODING"
      And it is rejected by rule HR-RCAP-03

    Scenario: a blob decoded with the wrong class
      Given the positive vector "positive/cell-blob-v1-class-2.bin"
      When it is decoded as CellBlobV1 of class 3
      Then it is rejected with code "BAD_ENCODING"
      And it is rejected by rule HR-BLOB-05

    Scenario: a schema catalog failure inside the format artifact
      Given the reference schema catalog
      And its entries[0].category is 1
      When the format artifact holding it is verified
      Then it is rejected with code "BAD_ENCODING"
      And it is rejected by rule HR-CAT-03

    Scenario: a format artifact whose authorityVersion is 2, an unknown version
      Given the reference format artifact
      And its authorityVersion is 2
      When the format artifact is verified
      Then it is rejected with code "BAD_ENCODING"
      And it is rejected by rule HR-FMT-03

    Scenario: a format artifact with another magic fails closed, under no code the spec names
      Given the reference format artifact
      And its magic is "HRBCCF00"
      When the format artifact is verified
      Then it is rejected
      And it is rejected by rule HR-FMT-02

    Scenario: an absolute manifest path fails closed, under no code the spec names
      Given a vector manifest of the paths "/positive/a.bin"
      When the manifest is parsed
      Then it is rejected
      And it is rejected by rule HR-MAN-04

    Scenario: a vector set without an inventory file fails complete authority verification, under no code the spec names
      Given the reference vector set
      And the file "positive/read-cell-cap-v1.bin" is removed from the vector set
      When the vector set is verified
      Then it is rejected
      And it is rejected by rule HR-VEC-02

  Rule: HR-CENC-16 Every key, commitment, hash, slot, chain ID or frame hash the codec marks nonzero holds a nonzero byte

    Scenario Outline: <schema> with <field> all zero
      Given a <schema>
      And its <field> is zero
      When it is decoded as <schema>
      Then it is rejected by rule <rule> with code "BAD_ENCODING"

      Examples:
        | schema                  | field                       | rule        |
        | ReadCellCapV1           | relayPublicKey              | HR-RCAP-03  |
        | ReadCellCapV1           | storageSlot                 | HR-RCAP-04  |
        | ReadCellCapV1           | cellKey                     | HR-RCAP-05  |
        | ReadCellCapV1           | expectedCellBlobHash        | HR-RCAP-06  |
        | WriteCellCapV1          | createPrivateKey            | HR-WCAP-02  |
        | WriteCellCapV1          | renewPrivateKey             | HR-WCAP-03  |
        | WriteCellCapV1          | dropPrivateKey              | HR-WCAP-04  |
        | OpaqueChainCheckpointV1 | coveredFrontier[0].chainId  | HR-CKPT-05  |
        | OpaqueChainCheckpointV1 | coveredFrontier[0].frameHash| HR-CKPT-06  |
        | OpaqueChainCheckpointV1 | opaqueStateCommitment       | HR-CKPT-07  |
        | OpaqueChainCheckpointV1 | snapshotPayloadHash         | HR-CKPT-08  |
        | OpaqueChainFrameV1      | chainId                     | HR-FRAME-02 |
        | OpaqueChainFrameV1      | transportVerifyKey          | HR-FRAME-05 |
        | BlindCoreReadCapV1      | corePublicKey               | HR-BCORE-02 |
        | BlindCoreReadCapV1      | blockEncryptionKey          | HR-BCORE-03 |

    Scenario Outline: <schema> with <field> holding one nonzero byte
      Given a <schema>
      And its <field> is 31 zero bytes + 01
      When it is decoded as <schema>
      Then the re-encoding equals the input

      Examples:
        | schema                  | field                        |
        | ReadCellCapV1           | relayPublicKey               |
        | ReadCellCapV1           | expectedCellBlobHash         |
        | WriteCellCapV1          | dropPrivateKey               |
        | OpaqueChainCheckpointV1 | coveredFrontier[0].chainId   |
        | OpaqueChainCheckpointV1 | coveredFrontier[2].frameHash |
        | OpaqueChainFrameV1      | transportVerifyKey           |
        | BlindCoreReadCapV1      | blockEncryptionKey           |

    Scenario Outline: <field> is not marked nonzero, so all zeros are accepted
      Given a <schema>
      And its <field> is zero
      When it is decoded as <schema>
      Then the re-encoding equals the input

      Examples:
        | schema             | field              |
        | OpaqueChainFrameV1 | transportSignature  |
        | BlindCoreReadCapV1 | witnessedSignedHead |

    @reading:HR-READ-03
    Scenario: a zero previous frame hash is accepted (the spec does not mark it nonzero)
      Given a successor OpaqueChainFrameV1
      And its previousFrameHash is zero
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

    @reading:HR-READ-03=zero-previous-hash-rejected
    Scenario: under reading zero-previous-hash-rejected, a zero previous frame hash is one of section 2's nonzero frame hashes
      Given a successor OpaqueChainFrameV1
      And its previousFrameHash is zero
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected with code "BAD_ENCODING"

  Rule: HR-CENC-17 Sorting is strict lexicographic unsigned-byte order

    Scenario: chain IDs 7f.. then 80.. are in unsigned order
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier has 2 entries
      And its coveredFrontier[0].chainId is 7f + 31 zero bytes
      And its coveredFrontier[1].chainId is 80 + 31 zero bytes
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the input

    Scenario: chain IDs 80.. then 7f.. are not (a signed comparison would accept them)
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier has 2 entries
      And its coveredFrontier[0].chainId is 80 + 31 zero bytes
      And its coveredFrontier[1].chainId is 7f + 31 zero bytes
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-03 with code "BAD_ENCODING"

    Scenario: read capabilities sorted by storage slot when their relay keys are equal
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[1].relayPublicKey equals its snapshotReadCaps[0].relayPublicKey
      And its snapshotReadCaps[0].storageSlot is 01 + 31 zero bytes
      And its snapshotReadCaps[1].storageSlot is ff + 31 zero bytes
      When it is decoded as OpaqueChainCheckpointV1
      Then the re-encoding equals the input

    Scenario: read capabilities whose storage slots descend under equal relay keys
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[1].relayPublicKey equals its snapshotReadCaps[0].relayPublicKey
      And its snapshotReadCaps[0].storageSlot is ff + 31 zero bytes
      And its snapshotReadCaps[1].storageSlot is 01 + 31 zero bytes
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-10 with code "BAD_ENCODING"

    Scenario: next read capabilities out of order
      Given a successor OpaqueChainFrameV1
      And the elements 0 and 1 of its nextReadCellCaps are swapped
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-09 with code "BAD_ENCODING"

    Scenario: catalog dependencies out of order
      Given the reference schema catalog
      And the elements 0 and 1 of its entries[3].dependencies are swapped
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-09 with code "BAD_ENCODING"

    Scenario: manifest rows out of order
      Given a vector manifest of the paths "positive/b.bin" and "positive/a.bin"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-02

  Rule: HR-CENC-18 Equal adjacent keys are duplicates and fail closed

    Scenario: two frontier entries with one chain ID, at different sequences
      Given an OpaqueChainCheckpointV1
      And its coveredFrontier[1].chainId equals its coveredFrontier[0].chainId
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-04 with code "BAD_ENCODING"

    Scenario: two snapshot read capabilities with one (relayPublicKey, storageSlot)
      Given an OpaqueChainCheckpointV1
      And its snapshotReadCaps[1].relayPublicKey equals its snapshotReadCaps[0].relayPublicKey
      And its snapshotReadCaps[1].storageSlot equals its snapshotReadCaps[0].storageSlot
      When it is decoded as OpaqueChainCheckpointV1
      Then it is rejected by rule HR-CKPT-11 with code "BAD_ENCODING"

    Scenario: two next read capabilities with one (relayPublicKey, storageSlot)
      Given a successor OpaqueChainFrameV1
      And its nextReadCellCaps[1].relayPublicKey equals its nextReadCellCaps[0].relayPublicKey
      And its nextReadCellCaps[1].storageSlot equals its nextReadCellCaps[0].storageSlot
      When it is decoded as OpaqueChainFrameV1
      Then it is rejected by rule HR-FRAME-10 with code "BAD_ENCODING"

    Scenario: a catalog dependency named twice
      Given the reference schema catalog
      And its entries[3].dependencies[1] is "OpaqueChainCheckpointV1"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-10 with code "BAD_ENCODING"

    Scenario: a manifest path named twice
      Given a vector manifest of the paths "positive/a.bin" and "positive/a.bin"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-03
