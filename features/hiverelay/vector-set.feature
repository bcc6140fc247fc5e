@hiverelay
Feature: HiveRelay BCC v1, section 5: the closed vector set and its hash
  The vector set is exactly the 18 paths of the closed inventory. Every
  positive vector decodes with its named codec and re-encodes byte for byte;
  the five blob vectors decode only with their stated class; every negative
  fails with BAD_ENCODING for the condition its path names; the registry
  vector equals the catalog embedded in the format artifact. Missing, extra,
  substituted or misclassified vectors fail complete authority verification
  (hiverelay.authority). "The reference vector set" is the committed files
  under vectors/{positive,negative,registry}/hiverelay/, the manifest the steps
  frame from them and the format artifact the steps build.

  Rule: HR-VEC-01 The vector set is exactly the 18 paths of the closed path inventory

    Scenario: the authority's manifest names exactly the inventory of the spec text
      Given the reference vector manifest
      When the manifest is parsed
      Then the paths of the manifest are the closed path inventory of the spec
      And the manifest has 18 entries

    Scenario: the committed vector set is a complete authority
      Given the reference vector set
      When the vector set is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
      And the vector set hash is "fd0639c088f1c420a7768940bd1e82b85e4831d2a0508a468e611be1ad9e54ca"

    Scenario: 17 of the 18 paths are not the inventory
      Given the reference vector set
      And the file "positive/blind-core-read-cap-v1.bin" is removed from the vector set
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-02

    Scenario: 19 paths are not the inventory
      Given the reference vector set
      And a file "positive/read-cell-cap-v2.bin" holding the vector "positive/read-cell-cap-v1.bin" is added to the vector set
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-03

  Rule: HR-VEC-02 A vector set missing an inventory path, or a vector its manifest names, fails complete authority verification

    Scenario Outline: <path> missing from the files and the manifest
      Given the reference vector set
      And the file "<path>" is removed from the vector set
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-02

      Examples:
        | path                                               |
        | negative/cell-blob-v1-class-1-truncated.bin        |
        | positive/cell-blob-v1-class-5.bin                  |
        | registry/client-composition-schema-catalog-v1.cenc |

    Scenario: a vector the manifest names is missing
      Given the reference vector set
      And the file "positive/write-cell-cap-v1.bin" is removed from the vector set
      When the vector set is verified
      Then it is rejected by rule HR-VEC-02

  Rule: HR-VEC-03 A vector set with a path outside the inventory, or a file its manifest does not name, fails complete authority verification

    Scenario Outline: an extra file "<path>" in the files and the manifest
      Given the reference vector set
      And a file "<path>" holding 00 is added to the vector set
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-03

      Examples:
        | path                                        |
        | positive/extra.bin                          |
        | registry/relay-wire-schema-catalog-v1.cenc  |
        | negative/relay-persistence-row-v1.bin       |
        | README                                      |

    Scenario: a file the manifest does not name
      Given the reference vector set
      And a file "positive/unlisted.bin" holding 01 is added to the vector set
      When the vector set is verified
      Then it is rejected by rule HR-VEC-03

  Rule: HR-VEC-04 A vector whose bytes differ from its manifest row is substituted and fails complete authority verification

    Scenario: a vector with one more byte than its row says
      Given the reference vector set
      And the file "registry/client-composition-schema-catalog-v1.cenc" of the vector set holds the schema catalog + 00
      When the vector set is verified
      Then it is rejected by rule HR-VEC-04

    Scenario: a vector of the same length with other bytes
      Given the reference vector set
      And the file "negative/read-cell-cap-zero-relay-public-key.bin" of the vector set holds the vector "positive/read-cell-cap-v1.bin"
      When the vector set is verified
      Then it is rejected by rule HR-VEC-04

    Scenario: a vector replaced by another valid record of its codec is still substituted
      Given the reference vector set
      And the file "positive/opaque-chain-frame-v1-genesis.bin" of the vector set holds the vector "positive/opaque-chain-frame-v1-successor.bin"
      When the vector set is verified
      Then it is rejected by rule HR-VEC-04

  Rule: HR-VEC-05 Every positive vector MUST decode with its named codec and re-encode byte for byte

    Scenario Outline: the positive vector <path> as <schema>
      Given the positive vector "<path>"
      When it is decoded as <schema>
      Then the re-encoding equals the input

      Examples:
        | path                                     | schema                  |
        | positive/blind-core-read-cap-v1.bin      | BlindCoreReadCapV1      |
        | positive/opaque-chain-checkpoint-v1.bin  | OpaqueChainCheckpointV1 |
        | positive/opaque-chain-frame-v1-genesis.bin   | OpaqueChainFrameV1  |
        | positive/opaque-chain-frame-v1-successor.bin | OpaqueChainFrameV1  |
        | positive/read-cell-cap-v1.bin            | ReadCellCapV1           |
        | positive/write-cell-cap-v1.bin           | WriteCellCapV1          |

    Scenario Outline: the positive vector <path> as CellBlobV1 of class <class>
      Given the positive vector "<path>"
      When it is decoded as CellBlobV1 of class <class>
      Then the re-encoding equals the input

      Examples:
        | path                              | class |
        | positive/cell-blob-v1-class-1.bin | 1     |
        | positive/cell-blob-v1-class-2.bin | 2     |
        | positive/cell-blob-v1-class-3.bin | 3     |
        | positive/cell-blob-v1-class-4.bin | 4     |
        | positive/cell-blob-v1-class-5.bin | 5     |

    Scenario Outline: the positive vector <path> equals the value the steps derive from the labels
      Given a <value>
      When it is decoded as <schema>
      Then the re-encoding equals the vector "<path>"

      Examples:
        | path                                         | value                        | schema                  |
        | positive/blind-core-read-cap-v1.bin          | BlindCoreReadCapV1           | BlindCoreReadCapV1      |
        | positive/opaque-chain-checkpoint-v1.bin      | OpaqueChainCheckpointV1      | OpaqueChainCheckpointV1 |
        | positive/opaque-chain-frame-v1-genesis.bin   | genesis OpaqueChainFrameV1   | OpaqueChainFrameV1      |
        | positive/opaque-chain-frame-v1-successor.bin | successor OpaqueChainFrameV1 | OpaqueChainFrameV1      |
        | positive/read-cell-cap-v1.bin                | ReadCellCapV1                | ReadCellCapV1           |
        | positive/write-cell-cap-v1.bin               | WriteCellCapV1               | WriteCellCapV1          |

    Scenario: a positive vector that holds a negative's bytes is misclassified
      Given the reference vector set
      And the file "positive/read-cell-cap-v1.bin" of the vector set holds the vector "negative/read-cell-cap-zero-relay-public-key.bin"
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-05

    Scenario: a positive vector that holds another codec's record is misclassified
      Given the reference vector set
      And the file "positive/write-cell-cap-v1.bin" of the vector set holds the vector "positive/read-cell-cap-v1.bin"
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-05

    Scenario: a blob vector that is no blob of any class
      Given the reference vector set
      And the file "positive/cell-blob-v1-class-2.bin" of the vector set holds the vector "positive/cell-blob-v1-class-1.bin" + 00
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-05

  Rule: HR-VEC-06 The five blob vectors MUST decode only with their stated contextual class

    Scenario Outline: the class-<class> blob vector does not decode as class <other>
      Given the positive vector "positive/cell-blob-v1-class-<class>.bin"
      When it is decoded as CellBlobV1 of class <other>
      Then it is rejected by rule HR-BLOB-05 with code "BAD_ENCODING"

      Examples:
        | class | other |
        | 1     | 2     |
        | 1     | 3     |
        | 1     | 4     |
        | 1     | 5     |
        | 2     | 1     |
        | 2     | 3     |
        | 2     | 4     |
        | 2     | 5     |
        | 3     | 1     |
        | 3     | 2     |
        | 3     | 4     |
        | 3     | 5     |
        | 4     | 1     |
        | 4     | 2     |
        | 4     | 3     |
        | 4     | 5     |
        | 5     | 1     |
        | 5     | 2     |
        | 5     | 3     |
        | 5     | 4     |

    Scenario: the class-1 and class-2 blob vectors swapped are misclassified by class
      Given the reference vector set
      And the file "positive/cell-blob-v1-class-1.bin" of the vector set holds the vector "positive/cell-blob-v1-class-2.bin"
      And the file "positive/cell-blob-v1-class-2.bin" of the vector set holds the vector "positive/cell-blob-v1-class-1.bin"
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-06

    Scenario: the class-4 blob stored as the class-5 vector is misclassified by class
      Given the reference vector set
      And the file "positive/cell-blob-v1-class-5.bin" of the vector set holds the vector "positive/cell-blob-v1-class-4.bin"
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-06

  Rule: HR-VEC-07 Every negative vector MUST fail canonical decoding with BAD_ENCODING for the condition named by its path

    Scenario Outline: the negative vector <path> fails by <rule>
      Given the negative vector "<path>"
      When it is decoded as <schema>
      Then it is rejected by rule <rule>

      Examples:
        | path                                                         | schema                  | rule        |
        | negative/blind-core-read-cap-zero-core-public-key.bin        | BlindCoreReadCapV1      | HR-BCORE-02 |
        | negative/opaque-chain-checkpoint-unsorted-frontier.bin       | OpaqueChainCheckpointV1 | HR-CKPT-03  |
        | negative/opaque-chain-frame-sequence-one-without-predecessor.bin | OpaqueChainFrameV1  | HR-FRAME-04 |
        | negative/read-cell-cap-zero-relay-public-key.bin             | ReadCellCapV1           | HR-RCAP-03  |
        | negative/write-cell-cap-duplicate-private-keys.bin           | WriteCellCapV1          | HR-WCAP-05  |

    Scenario: the negative vector negative/cell-blob-v1-class-1-truncated.bin fails as a short class-1 blob
      Given the negative vector "negative/cell-blob-v1-class-1-truncated.bin"
      When it is decoded as CellBlobV1 of class 1
      Then it is rejected by rule HR-BLOB-06 with code "BAD_ENCODING"

    Scenario: each negative is its positive with only the named condition changed
      Given a ReadCellCapV1 with relayPublicKey zero
      Then the input equals the vector "negative/read-cell-cap-zero-relay-public-key.bin"
      When it is decoded as ReadCellCapV1
      Then it is rejected by rule HR-RCAP-03 with code "BAD_ENCODING"

    Scenario: a negative vector that decodes is misclassified
      Given the reference vector set
      And the file "negative/read-cell-cap-zero-relay-public-key.bin" of the vector set holds the vector "positive/read-cell-cap-v1.bin"
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-07

    Scenario: a negative vector that fails for another condition than its path names is misclassified
      Given the reference vector set
      And the file "negative/cell-blob-v1-class-1-truncated.bin" of the vector set holds the vector "positive/cell-blob-v1-class-1.bin" + 00
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-07

  Rule: HR-VEC-08 The registry vector MUST equal the catalog embedded in the format artifact

    Scenario: the registry vector is the catalog of the authority's format artifact
      Given the registry vector "registry/client-composition-schema-catalog-v1.cenc"
      When the format artifact holding it is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
      And the input equals the schema catalog

    Scenario: a registry vector that differs from the artifact's catalog
      Given the reference vector set
      And the file "registry/client-composition-schema-catalog-v1.cenc" of the vector set holds the schema catalog + 00
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-08

    Scenario: the registry vector against an artifact with another valid catalog
      Given the reference format artifact
      And its schemaCatalogBytes.entries[1].declaration is "CellBlobV1 {\n\n}"
      And the reference vector set with that format artifact
      When the vector set is verified
      Then it is rejected by rule HR-VEC-08

  Rule: HR-VEC-09 clientCompositionVectorSetHash = BLAKE2b-256("hiverelay.blind.client-composition-vector-set-hash.v1" || U64BE(len(manifest)) || manifest)

    Scenario: the authority's vector set hash
      Given the reference vector manifest
      When the manifest is parsed
      Then the vector set hash is "fd0639c088f1c420a7768940bd1e82b85e4831d2a0508a468e611be1ad9e54ca"
      And the vector set hash follows the formula of section 5

    Scenario Outline: the vector set hash of the manifest of <paths>
      Given a vector manifest of the paths <paths>
      When the manifest is parsed
      Then the vector set hash follows the formula of section 5

      Examples:
        | paths                   |
        | "a.bin"                 |
        | "a.bin" and "b.bin"     |

    Scenario: the vector set hash of the manifest of no vectors
      Given the input bytes "00 00 00 00"
      When the manifest is parsed
      Then the vector set hash follows the formula of section 5
