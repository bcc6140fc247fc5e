@hiverelay
Feature: HiveRelay BCC v1, sections 1 and 4: the schema catalog
  hiverelay-blind-client-composition-schema-catalog-v1.cenc holds the six
  canonical declarations and their composition dependencies. Its encoding is
  the project's (the "stable master schema meta-grammar" is not given;
  docs/hiverelay.md defines it byte by byte): a compact-uint entry count, then
  per entry category u8, localId u8, name, declaration and the dependency
  names, each string a bounded byte string. The catalog is checked where the
  spec checks it: inside the format artifact ("the catalog decodes canonically
  to exactly the six names and local IDs in section 1"), so each scenario
  verifies the reference format artifact holding the catalog it builds.

  Rule: HR-CAT-01 The schema catalog is a compact-uint entry count, then per entry category, localId, name, declaration and dependency names (project-defined layout)

    Scenario: the reference catalog, byte by byte as docs/hiverelay.md gives it
      Given the concatenation of:
        | field       | bytes                                                                                          |
        | entryCount  | 06                                                                                             |
        | entries[0]  | 03 01 + 12 + "BlindCoreReadCapV1" + fd 0e 01 + declaration "BlindCoreReadCapV1" + 00               |
        | entries[1]  | 03 02 + 0a + "CellBlobV1" + 70 + declaration "CellBlobV1" + 00                                     |
        | entries[2]  | 03 03 + 17 + "OpaqueChainCheckpointV1" + fd 04 01 + declaration "OpaqueChainCheckpointV1" + 01 + 0d + "ReadCellCapV1" |
        | entries[3]  | 03 04 + 12 + "OpaqueChainFrameV1" + fd 50 01 + declaration "OpaqueChainFrameV1" + 02 + 17 + "OpaqueChainCheckpointV1" + 0d + "ReadCellCapV1" |
        | entries[4]  | 03 05 + 0d + "ReadCellCapV1" + 98 + declaration "ReadCellCapV1" + 00                               |
        | entries[5]  | 03 06 + 0e + "WriteCellCapV1" + 8c + declaration "WriteCellCapV1" + 01 + 0d + "ReadCellCapV1"          |
      When the format artifact holding it is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
      And the input is 1469 bytes long
      And the input equals the vector "registry/client-composition-schema-catalog-v1.cenc"
      And the input equals the published file "hiverelay-blind-client-composition-schema-catalog-v1.cenc"

    Scenario: a catalog whose declaration text differs is another catalog with another format hash
      Given the reference schema catalog
      And its entries[1].declaration is "CellBlobV1 {\nformatVersion: u8 = 1\n}"
      When the format artifact holding it is verified
      Then the format hash follows the formula of section 4
      And the format hash is not "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"

  Rule: HR-CAT-02 A schema catalog whose entry count is not exactly 6 fails with BAD_ENCODING

    Scenario: five entries
      Given the reference schema catalog
      And element 5 of its entries is removed
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-02 with code "BAD_ENCODING"

    Scenario: seven entries
      Given the reference schema catalog
      And a copy of its entries[5] is added at the end of its entries
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-02 with code "BAD_ENCODING"

    Scenario: no entries
      Given the reference schema catalog
      And its entries is empty
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-02 with code "BAD_ENCODING"

  Rule: HR-CAT-03 A schema catalog entry whose category is not 3 (CLIENT_EXAMPLE) fails with BAD_ENCODING

    Scenario Outline: entry <i> of category <category>
      Given the reference schema catalog
      And its entries[<i>].category is <category>
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-03 with code "BAD_ENCODING"

      Examples:
        | i | category |
        | 0 | 0        |
        | 0 | 1        |
        | 0 | 2        |
        | 3 | 4        |
        | 5 | 5        |
        | 5 | 255      |

  Rule: HR-CAT-04 Schema catalog entries carry local IDs 1 through 6 respectively

    Scenario Outline: entry <i> with local ID <id>
      Given the reference schema catalog
      And its entries[<i>].localId is <id>
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-04 with code "BAD_ENCODING"

      Examples:
        | i | id |
        | 0 | 0  |
        | 0 | 2  |
        | 1 | 1  |
        | 5 | 7  |

  Rule: HR-CAT-05 Schema catalog entry i carries the i-th of the six names in raw-ASCII order

    Scenario Outline: entry <i> named "<name>"
      Given the reference schema catalog
      And its entries[<i>].name is "<name>"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-05 with code "BAD_ENCODING"

      Examples:
        | i | name               |
        | 0 | RelayWireHelloV1   |
        | 0 | CellBlobV1         |
        | 1 | cellBlobV1         |
        | 4 | ReadCellCapV2      |
        | 5 | WriteCellCapV1\x00 |

    Scenario: a foreign name with a well-formed declaration of its own
      Given the reference schema catalog
      And its entries[4].name is "RelayWireHelloV1"
      And its entries[4].declaration is "RelayWireHelloV1 {\nversion: u8 = 1\n}"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-05 with code "BAD_ENCODING"

    Scenario: a name of 300 bytes
      Given the reference schema catalog
      And its entries[2].name is 300 bytes
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-05 with code "BAD_ENCODING"

  Rule: HR-CAT-06 A schema catalog declaration of 0 or more than 65535 bytes fails with BAD_ENCODING (project-defined bound)

    Scenario: an empty declaration
      Given the reference schema catalog
      And its entries[1].declaration is empty
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-06 with code "BAD_ENCODING"

    Scenario: a declaration length of 65536
      Given the reference schema catalog
      And the length of its entries[1].declaration is written as "fe 00 00 01 00"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-06 with code "BAD_ENCODING"

    Scenario: a well-formed declaration of 65536 bytes
      Given the reference schema catalog
      And its entries[1].declaration is "CellBlobV1 {\n" + 65521 times "x" + "\n}"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-06 with code "BAD_ENCODING"

    Scenario: a well-formed declaration of 65535 bytes
      Given the reference schema catalog
      And its entries[1].declaration is "CellBlobV1 {\n" + 65520 times "x" + "\n}"
      When the format artifact holding it is verified
      Then the format hash follows the formula of section 4

  Rule: HR-CAT-07 A schema catalog declaration that is not strict UTF-8, or holds a control character other than LF, fails with BAD_ENCODING (project-defined)

    Scenario Outline: a declaration holding <what>
      Given the reference schema catalog
      And its entries[1].declaration is "CellBlobV1 {\nformatVersion:<bytes>u8 = 1\n}"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-07 with code "BAD_ENCODING"

      Examples:
        | what                        | bytes    |
        | a tab                       | \t       |
        | a CR                        | \r       |
        | a NUL                       | \x00     |
        | DEL                         | \x7f     |
        | an overlong UTF-8 slash     | \xc0\xaf |
        | a UTF-16 surrogate          | \xed\xa0\x80 |
        | a stray continuation byte   | \x80     |

    Scenario: non-ASCII text in strict UTF-8 is accepted
      Given the reference schema catalog
      And its entries[1].declaration is "CellBlobV1 {\nformatVersion: u8 = 1 // é, ✓\n}"
      When the format artifact holding it is verified
      Then the format hash follows the formula of section 4

  Rule: HR-CAT-08 A schema catalog declaration begins with its entry's name, " {" and LF, and ends with LF and "}" (project-defined)

    Scenario Outline: the declaration "<text>"
      Given the reference schema catalog
      And its entries[1].declaration is "<text>"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-08 with code "BAD_ENCODING"

      Examples:
        | text                                  |
        | CellBlobV1{\nformatVersion: u8 = 1\n} |
        | CellBlobV1 {formatVersion: u8 = 1\n}  |
        | CellBlobV1 {\nformatVersion: u8 = 1\n |
        | CellBlobV1 {\nformatVersion: u8 = 1}  |
        | CellBlobV1 {\nformatVersion: u8 = 1\n}\n |
        | ReadCellCapV1 {\nversion: u8 = 1\n}   |
        | cellblobv1 {\nformatVersion: u8 = 1\n} |

    Scenario: the shortest well-formed declaration
      Given the reference schema catalog
      And its entries[1].declaration is "CellBlobV1 {\n\n}"
      When the format artifact holding it is verified
      Then the format hash follows the formula of section 4

  Rule: HR-CAT-09 Schema catalog dependency names are sorted in raw-ASCII order (project-defined)

    Scenario: the frame's two dependencies swapped
      Given the reference schema catalog
      And the elements 0 and 1 of its entries[3].dependencies are swapped
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-09 with code "BAD_ENCODING"

  Rule: HR-CAT-10 Two equal dependency names of one entry are duplicates and fail with BAD_ENCODING (project-defined)

    Scenario: ReadCellCapV1 named twice by WriteCellCapV1
      Given the reference schema catalog
      And a copy of its entries[5].dependencies[0] is added at the end of its entries[5].dependencies
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-10 with code "BAD_ENCODING"

  Rule: HR-CAT-11 A dependency that is not one of the other five names of this authority, or more than five of them, fails with BAD_ENCODING (project-defined)

    Scenario Outline: a dependency named "<name>"
      Given the reference schema catalog
      And its entries[2].dependencies[0] is "<name>"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-11 with code "BAD_ENCODING"

      Examples:
        | name                    |
        | RelayWireHelloV1        |
        | RelayPersistenceRowV1   |
        | readCellCapV1           |
        | OpaqueChainCheckpointV1 |

    Scenario: six dependencies
      Given the reference schema catalog
      And the count of its entries[0].dependencies is written as "06"
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-11 with code "BAD_ENCODING"

    @reading:HR-READ-04
    Scenario: all five other names are allowed
      Given the reference schema catalog
      And a copy of its entries[0].name is added at the end of its entries[1].dependencies
      And a copy of its entries[2].name is added at the end of its entries[1].dependencies
      And a copy of its entries[3].name is added at the end of its entries[1].dependencies
      And a copy of its entries[4].name is added at the end of its entries[1].dependencies
      And a copy of its entries[5].name is added at the end of its entries[1].dependencies
      When the format artifact holding it is verified
      Then the format hash follows the formula of section 4

    @reading:HR-READ-04=derived-from-declaration
    Scenario: under reading derived-from-declaration, a dependency the declaration does not mention fails
      Given the reference schema catalog
      And a copy of its entries[0].name is added at the end of its entries[1].dependencies
      When the format artifact holding it is verified
      Then it is rejected by rule HR-CAT-11 with code "BAD_ENCODING"

    @reading:HR-READ-04=derived-from-declaration
    Scenario: under reading derived-from-declaration, the authority's catalog, whose dependencies are its declarations' names, is verified
      Given the reference schema catalog
      When the format artifact holding it is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
