@hiverelay
Feature: HiveRelay BCC v1, section 1 and the authority's identity
  The authority owns exactly six client-owned schema names, category 3
  (CLIENT_EXAMPLE) rows 1 through 6. A relay carries their opaque containing
  bytes and must not decode them; relay WIRE, product evidence, relay
  persistence and private IPC are outside the authority and appear in neither
  its catalog nor its vector set. Its final identity is the pair
  (clientCompositionFormatHash, clientCompositionVectorSetHash), published in
  the generated metadata artifact (docs/hiverelay.md: one line of canonical
  JSON); an application profile binds that pair, never a copied declaration.

  Rule: HR-AUTH-01 A relay stores or transports the opaque bytes containing these records and MUST NOT decode them

    # Not byte-testable: it binds relays. What the codecs show is that the
    # envelope a relay stores is opaque: nothing in a blob's sealed bytes is
    # examined, even when they hold an encoded record.
    Scenario: a blob whose sealed bytes hold an invalid ReadCellCapV1 decodes as a blob
      Given the concatenation of:
        | field         | bytes                                                                       |
        | formatVersion | 01                                                                          |
        | nonce         | 12 bytes of label "relay/opaque/nonce"                                      |
        | sealed        | the vector "negative/read-cell-cap-zero-relay-public-key.bin" + 3952 zero bytes |
      When it is decoded as CellBlobV1 of class 1
      Then the re-encoding equals the input

    Scenario: a frame's opaque payload may hold any bytes, even another frame
      Given a genesis OpaqueChainFrameV1
      And its opaquePayloads[1] is the vector "negative/opaque-chain-frame-sequence-one-without-predecessor.bin"
      When it is decoded as OpaqueChainFrameV1
      Then the re-encoding equals the input

  Rule: HR-AUTH-02 The authority owns exactly the six schema names, in raw-ASCII order

    Scenario Outline: <schema> is one of the six, and decodes
      Given a <schema>
      When it is decoded as <schema>
      Then the re-encoding equals the input

      Examples:
        | schema                  |
        | BlindCoreReadCapV1      |
        | OpaqueChainCheckpointV1 |
        | OpaqueChainFrameV1      |
        | ReadCellCapV1           |
        | WriteCellCapV1          |

    Scenario: CellBlobV1 is one of the six, and decodes with its class
      Given a CellBlobV1 of class 3
      When it is decoded as CellBlobV1 of class 3
      Then the re-encoding equals the input

    Scenario: a catalog with a seventh name
      Given the reference schema catalog
      And a copy of its entries[5] is added at the end of its entries
      And its entries[6].name is "WriteCellCapV2"
      And its entries[6].localId is 7
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-02 with code "BAD_ENCODING"

    Scenario: a catalog whose names are not in raw-ASCII order
      Given the reference schema catalog
      And its entries[0].name equals its entries[1].name
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-05 with code "BAD_ENCODING"

    Scenario: a vector set without the vectors of one of the six
      Given the reference vector set
      And the file "positive/write-cell-cap-v1.bin" is removed from the vector set
      And the file "negative/write-cell-cap-duplicate-private-keys.bin" is removed from the vector set
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-02

  Rule: HR-AUTH-03 No schema, name, declaration, fixture or byte catalog of relay WIRE, product evidence, relay persistence or private IPC appears in the catalog or the vector set

    Scenario Outline: a catalog entry of category <category> (<what>)
      Given the reference schema catalog
      And its entries[4].category is <category>
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-03 with code "BAD_ENCODING"

      Examples:
        | category | what               |
        | 1        | relay WIRE         |
        | 4        | relay persistence  |
        | 5        | private IPC        |

    Scenario: a relay WIRE schema name in the catalog
      Given the reference schema catalog
      And its entries[4].name is "RelayWireHelloV1"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-05 with code "BAD_ENCODING"

    Scenario: a composition dependency on a relay persistence schema
      Given the reference schema catalog
      And its entries[5].dependencies[0] is "RelayPersistenceRowV1"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-11 with code "BAD_ENCODING"

    Scenario: a relay WIRE byte catalog in the vector set
      Given the reference vector set
      And a file "registry/relay-wire-schema-catalog-v1.cenc" holding the schema catalog is added to the vector set
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-03

    Scenario: a private IPC fixture in the vector set
      Given the reference vector set
      And a file "positive/private-ipc-request-v1.bin" holding 01 is added to the vector set
      And the vector manifest is framed again from the files
      When the vector set is verified
      Then it is rejected by rule HR-VEC-03

  Rule: HR-AUTH-04 An application profile MUST bind the complete two-hash tuple rather than copy a declaration or rely on a JavaScript object shape

    # Not byte-testable: it binds composing profiles. What can be shown is
    # that the tuple binds every declaration byte and every vector byte, so a
    # profile that binds it cannot be satisfied by a copied declaration.
    Scenario: a catalog with one declaration comment changed is valid, but has another format hash
      Given the reference format artifact
      And "stable opaque transport identity" is replaced by "stable opaque transport key" in its schemaCatalogBytes.entries[0].declaration
      When the format artifact is verified
      Then the format hash follows the formula of section 4
      And the format hash is not "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"

    Scenario: a manifest whose one row names another vector length is valid, but has another vector set hash
      Given the reference vector manifest
      And its rows[0].length is 385
      When the manifest is parsed
      Then the vector set hash follows the formula of section 5
      And the vector set hash is not "fd0639c088f1c420a7768940bd1e82b85e4831d2a0508a468e611be1ad9e54ca"

    Scenario: the published metadata artifact carries the complete tuple
      Given the reference vector set and its metadata artifact
      When the authority is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
      And the vector set hash is "fd0639c088f1c420a7768940bd1e82b85e4831d2a0508a468e611be1ad9e54ca"
      And the metadata artifact equals the published file "hiverelay-blind-client-composition-metadata-v1.json"

  Rule: HR-VEC-10 The final identity of this authority is the pair of hashes, published in the generated metadata artifact (project-defined)

    Scenario: the metadata artifact of the authority verifies against its artifact and vectors
      Given the reference vector set and its metadata artifact
      When the authority is verified
      Then the format hash follows the formula of section 4
      And the vector set hash follows the formula of section 5

    @reading:HR-READ-11
    Scenario Outline: a metadata artifact with <what>
      Given the reference vector set and its metadata artifact
      And the metadata artifact has '<old>' replaced by '<new>'
      When the authority is verified
      Then it is rejected by rule HR-VEC-10

      Examples:
        | what                                 | old                                    | new                                     |
        | another row count                    | "vectorManifestEntries":18             | "vectorManifestEntries":17              |
        | another artifact length              | "formatArtifactLength":9484            | "formatArtifactLength":9485             |
        | another manifest length              | "vectorManifestLength":1506            | "vectorManifestLength":1505             |
        | another format hash                  | "clientCompositionFormatHash":"5c30    | "clientCompositionFormatHash":"5c31     |
        | another vector set hash              | "clientCompositionVectorSetHash":"fd06 | "clientCompositionVectorSetHash":"fd07  |
        | upper-case hex                       | "clientCompositionFormatHash":"5c      | "clientCompositionFormatHash":"5C      |
        | a hash one byte short                | 9a7165"                                | 9a71"                                   |
        | whitespace                           | ,"formatArtifact"                      | , "formatArtifact"                      |
        | an unknown key                       | {"authority"                           | {"comment":"x","authority"              |
        | another authority name               | composition-v1"                        | composition-v2"                         |
        | no final LF                          | }\n                                    | }                                       |
        | a CR LF line end                     | }\n                                    | }\r\n                                   |

    @reading:HR-READ-11=metadata-unchecked
    Scenario Outline: under reading metadata-unchecked, a metadata artifact with <what> still publishes both hashes
      Given the reference vector set and its metadata artifact
      And the metadata artifact has '<old>' replaced by '<new>'
      When the authority is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"

      Examples:
        | what                                 | old                                    | new                                     |
        | another row count                    | "vectorManifestEntries":18             | "vectorManifestEntries":17              |
        | whitespace                           | ,"formatArtifact"                      | , "formatArtifact"                      |
        | an unknown key                       | {"authority"                           | {"comment":"x","authority"              |

    @reading:HR-READ-11=metadata-unchecked
    Scenario Outline: under reading metadata-unchecked, a metadata artifact with <what> fails
      Given the reference vector set and its metadata artifact
      And the metadata artifact has '<old>' replaced by '<new>'
      When the authority is verified
      Then it is rejected by rule HR-VEC-10

      Examples:
        | what                                 | old                                    | new                                     |
        | another format hash                  | "clientCompositionFormatHash":"5c30    | "clientCompositionFormatHash":"5c31     |
        | another vector set hash              | "clientCompositionVectorSetHash":"fd06 | "clientCompositionVectorSetHash":"fd07  |

  Rule: HR-VEC-11 Neither clientCompositionFormatHash nor clientCompositionVectorSetHash is a relay WIRE tuple component

    # Not byte-testable: it binds relays. What can be shown is that the
    # published identity is the client-composition pair alone.
    @reading:HR-READ-11
    Scenario: a metadata artifact that adds a relay WIRE tuple component is not this authority's identity
      Given the reference vector set and its metadata artifact
      And the metadata artifact has '{"authority"' replaced by '{"relayWireTuple":"00","authority"'
      When the authority is verified
      Then it is rejected by rule HR-VEC-10

    Scenario: both hashes are under client-composition domains, not a relay WIRE domain
      Given the reference vector set and its metadata artifact
      When the authority is verified
      Then the format hash follows the formula of section 4
      And the vector set hash follows the formula of section 5
      And the format hash is not the BLAKE2b-256 of the format artifact alone
