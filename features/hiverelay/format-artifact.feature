@hiverelay
Feature: HiveRelay BCC v1, section 4: the format artifact and its hash
  hiverelay-blind-client-composition-format-v1.cenc is ASCII "HRBCCF01",
  authorityVersion u16be 1, formatMajor u16be 1, formatMinor u16be 0,
  specLength u64be, schemaCatalogLength u64be, the spec bytes (this exact
  UTF-8 file) and the schema catalog bytes. Both lengths are nonzero and at
  most 1 MiB; the spec bytes use LF only, no BOM or NUL, strict UTF-8 and
  exactly one final LF; the catalog decodes canonically; trailing bytes fail.
  "The reference format artifact" is built by the steps from the spec file and
  the declarations; the lengths follow the parts unless a step sets them.

  Rule: HR-FMT-01 The format artifact is "HRBCCF01", authorityVersion, formatMajor, formatMinor, specLength, schemaCatalogLength, the spec bytes and the catalog bytes

    Scenario: the authority's artifact, field by field
      Given the concatenation of:
        | field               | bytes                   |
        | magic               | 48 52 42 43 43 46 30 31 |
        | authorityVersion    | 00 01                   |
        | formatMajor         | 00 01                   |
        | formatMinor         | 00 00                   |
        | specLength          | u64be 7985              |
        | schemaCatalogLength | u64be 1469              |
        | specBytes           | the spec                |
        | schemaCatalogBytes  | the vector "registry/client-composition-schema-catalog-v1.cenc" |
      When the format artifact is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
      And the input is 9484 bytes long
      And the input equals the published file "hiverelay-blind-client-composition-format-v1.cenc"

    @reading:HR-READ-01
    Scenario: an artifact around the shortest spec text, one LF
      Given the concatenation of:
        | field               | bytes                   |
        | magic               | "HRBCCF01"              |
        | versions            | 00 01 00 01 00 00       |
        | specLength          | u64be 1                 |
        | schemaCatalogLength | u64be 1469              |
        | specBytes           | 0a                      |
        | schemaCatalogBytes  | the schema catalog      |
      When the format artifact is verified
      Then the format hash follows the formula of section 4

  Rule: HR-FMT-02 A format artifact that does not begin with ASCII "HRBCCF01" fails closed

    Scenario Outline: magic "<magic>"
      Given the reference format artifact
      And its magic is "<magic>"
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-02

      Examples:
        | magic        |
        | HRBCCF02     |
        | HRBCCF00     |
        | hrbccf01     |
        | \x00HRBCCF0  |

    Scenario: an input of 7 bytes of magic
      Given the input bytes "48 52 42 43 43 46 30"
      When the format artifact is verified
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

  Rule: HR-FMT-03 A format artifact whose authorityVersion is not 1 fails with BAD_ENCODING

    Scenario Outline: authorityVersion <v>
      Given the reference format artifact
      And its authorityVersion is <v>
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-03 with code "BAD_ENCODING"

      Examples:
        | v      |
        | 0      |
        | 2      |
        | 256    |
        | 0xffff |

  Rule: HR-FMT-04 A format artifact whose formatMajor is not 1 fails with BAD_ENCODING

    Scenario Outline: formatMajor <v>
      Given the reference format artifact
      And its formatMajor is <v>
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-04 with code "BAD_ENCODING"

      Examples:
        | v |
        | 0 |
        | 2 |

  Rule: HR-FMT-05 A format artifact whose formatMinor is not 0 fails with BAD_ENCODING

    Scenario Outline: formatMinor <v>
      Given the reference format artifact
      And its formatMinor is <v>
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-05 with code "BAD_ENCODING"

      Examples:
        | v      |
        | 1      |
        | 0xffff |

  Rule: HR-FMT-06 A format artifact whose specLength is zero fails with BAD_ENCODING

    Scenario: specLength 0
      Given the reference format artifact
      And its specLength is 0
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-06 with code "BAD_ENCODING"

    Scenario: an empty spec
      Given the reference format artifact
      And its specBytes is empty
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-06 with code "BAD_ENCODING"

  Rule: HR-FMT-07 A format artifact whose specLength exceeds 1 MiB fails with BAD_ENCODING

    @reading:HR-READ-01
    Scenario: a spec text of exactly 1 MiB
      Given the reference format artifact
      And its specBytes is 1048575 times "x" + "\n"
      When the format artifact is verified
      Then the format hash follows the formula of section 4

    Scenario: a spec text of 1 MiB and one byte
      Given the reference format artifact
      And its specBytes is 1048576 times "x" + "\n"
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-07 with code "BAD_ENCODING"

    Scenario Outline: specLength <n> without the bytes
      Given the reference format artifact
      And its specLength is <n>
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-07 with code "BAD_ENCODING"

      Examples:
        | n       |
        | 1048577 |
        | 2^64-1  |

  Rule: HR-FMT-08 A format artifact whose schemaCatalogLength is zero fails with BAD_ENCODING

    Scenario: schemaCatalogLength 0
      Given the reference format artifact
      And its schemaCatalogLength is 0
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-08 with code "BAD_ENCODING"

  Rule: HR-FMT-09 A format artifact whose schemaCatalogLength exceeds 1 MiB fails with BAD_ENCODING

    Scenario: schemaCatalogLength 1048577
      Given the reference format artifact
      And its schemaCatalogLength is 1048577
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-09 with code "BAD_ENCODING"

    Scenario: schemaCatalogLength 1048576 is allowed; the bytes it announces are missing
      Given the reference format artifact
      And its schemaCatalogLength is 1048576
      When the format artifact is verified
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

  Rule: HR-FMT-10 Spec bytes use LF only; a CR byte fails closed

    Scenario: the first line of the spec ended by CR LF
      Given the reference format artifact
      And "\r" is inserted into its specBytes at offset 39
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-10

    Scenario Outline: the spec text "<text>"
      Given the reference format artifact
      And its specBytes is "<text>"
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-10

      Examples:
        | text      |
        | a\rb\n    |
        | a\r\n     |
        | \r\n      |

  Rule: HR-FMT-11 Spec bytes hold no byte order mark (U+FEFF at their start); one fails closed

    Scenario: the spec preceded by a byte order mark
      Given the reference format artifact
      And ef bb bf is inserted into its specBytes at offset 0
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-11

    @reading:HR-READ-19 @reading:HR-READ-01
    Scenario: U+FEFF inside the text is no byte order mark, which stands at the start
      Given the reference format artifact
      And its specBytes is "first\n\ufeffsecond\n"
      When the format artifact is verified
      Then the format hash follows the formula of section 4

    @reading:HR-READ-19=feff-anywhere
    Scenario: under reading feff-anywhere, U+FEFF inside the text fails closed
      Given the reference format artifact
      And its specBytes is "first\n\ufeffsecond\n"
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-11

  Rule: HR-FMT-12 Spec bytes hold no NUL byte; one fails closed

    Scenario: a NUL inside the spec
      Given the reference format artifact
      And 00 is inserted into its specBytes at offset 10
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-12

    Scenario: a NUL before the final LF
      Given the reference format artifact
      And its specBytes is "text\x00\n"
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-12

  Rule: HR-FMT-13 Spec bytes are strict UTF-8; anything else fails closed

    Scenario Outline: spec text with <what>
      Given the reference format artifact
      And its specBytes is "<text>"
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-13

      Examples:
        | what                              | text               |
        | an overlong slash                 | a\xc0\xafb\n       |
        | a UTF-16 surrogate                | \xed\xa0\x80\n     |
        | a code point above U+10FFFF       | \xf4\x90\x80\x80\n |
        | a stray continuation byte         | a\x80\n            |
        | a sequence cut short              | a\xe2\x82\n        |
        | a byte that never occurs in UTF-8 | a\xff\n            |

    @reading:HR-READ-01
    Scenario: non-ASCII text in strict UTF-8 is accepted
      Given the reference format artifact
      And its specBytes is "Blind Client Composition — é, ✓, 🖧\n"
      When the format artifact is verified
      Then the format hash follows the formula of section 4

  Rule: HR-FMT-14 Spec bytes end with exactly one final LF

    Scenario: the spec without its final LF
      Given the reference format artifact
      And the last byte of its specBytes is removed
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-14

    Scenario: the spec with a second final LF
      Given the reference format artifact
      And "\n" is appended to its specBytes
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-14

    Scenario Outline: the spec text "<text>"
      Given the reference format artifact
      And its specBytes is "<text>"
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-14

      Examples:
        | text    |
        | x       |
        | \n\n    |
        | x\n\n\n |

    @reading:HR-READ-01
    Scenario Outline: the spec text "<text>" ends with exactly one LF
      Given the reference format artifact
      And its specBytes is "<text>"
      When the format artifact is verified
      Then the format hash follows the formula of section 4

      Examples:
        | text   |
        | \n     |
        | x\n    |
        | \nx\n  |

  Rule: HR-FMT-15 The embedded catalog decodes canonically to exactly the six names and local IDs of section 1

    Scenario Outline: an artifact whose catalog is changed: <field> <value>
      Given the reference format artifact
      And its schemaCatalogBytes.<field> is <value>
      When the format artifact is verified
      Then it is rejected by rule <rule> with code "BAD_ENCODING"

      Examples:
        | field                        | value                | rule       |
        | entries[0].category          | 1                    | HR-CAT-03  |
        | entries[2].localId           | 4                    | HR-CAT-04  |
        | entries[4].name              | "RelayWireHelloV1"   | HR-CAT-05  |
        | entries[1].declaration       | empty                | HR-CAT-06  |
        | entries[5].dependencies[0]   | "RelayWireHelloV1"   | HR-CAT-11  |
        | entries                      | empty                | HR-CAT-02  |

    Scenario: an artifact whose catalog holds the six entries in reverse order
      Given the reference format artifact
      And the elements 0 and 5 of its schemaCatalogBytes.entries are swapped
      When the format artifact is verified
      Then it is rejected by rule HR-CAT-04 with code "BAD_ENCODING"

    Scenario: an artifact whose catalog length cuts the catalog short
      Given the reference format artifact
      And its schemaCatalogLength is 1468
      When the format artifact is verified
      Then it is rejected by rule HR-CENC-11 with code "BAD_ENCODING"

  Rule: HR-FMT-16 Bytes after the schema catalog of a format artifact fail closed with BAD_ENCODING

    Scenario Outline: the artifact followed by <bytes>
      Given the reference format artifact
      And <bytes> is appended to the input
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-16 with code "BAD_ENCODING"

      Examples:
        | bytes                                                   |
        | 00                                                      |
        | 0a                                                      |
        | the published file "hiverelay-blind-client-composition-format-v1.cenc" |

  Rule: HR-FMT-17 The spec bytes of the authority's format artifact are exactly this specification file

    Scenario: the authority's artifact embeds the 7985 spec bytes and has the authority's format hash
      Given the reference format artifact
      When the format artifact is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
      And the input contains the spec
      And the spec is 7985 bytes with SHA-256 "c8b2941c96eaf3704ca1671973cf7436b832c659dac41f14811a0fc926af7c43"

    @reading:HR-READ-01
    Scenario: one letter of the spec changed: a valid artifact, but not this authority's
      Given the reference format artifact
      And byte 2 of its specBytes is set to 68
      When the format artifact is verified
      Then the format hash follows the formula of section 4
      And the format hash is not "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"

    @reading:HR-READ-01=exact-authority-bytes
    Scenario: under reading exact-authority-bytes, one letter of the spec changed fails format verification
      Given the reference format artifact
      And byte 2 of its specBytes is set to 68
      When the format artifact is verified
      Then it is rejected by rule HR-FMT-17

    @reading:HR-READ-01=exact-authority-bytes
    Scenario: under reading exact-authority-bytes, the authority's own artifact is verified
      Given the reference format artifact
      When the format artifact is verified
      Then the format hash is "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"

    @reading:HR-READ-01
    Scenario: the vector set verifies against an artifact around another spec text
      Given the reference format artifact
      And its specBytes is "another spec\n"
      And the reference vector set with that format artifact
      When the vector set is verified
      Then the format hash follows the formula of section 4

    Scenario: a metadata artifact, which names this authority, over an artifact around another spec text
      Given the reference format artifact
      And its specBytes is "another spec\n"
      And the reference vector set with that format artifact and its metadata artifact
      When the authority is verified
      Then it is rejected by rule HR-FMT-17

    Scenario: a metadata artifact over an artifact whose spec has one letter changed
      Given the reference format artifact
      And byte 2 of its specBytes is set to 68
      And the reference vector set with that format artifact and its metadata artifact
      When the authority is verified
      Then it is rejected by rule HR-FMT-17

  Rule: HR-FMT-18 clientCompositionFormatHash = BLAKE2b-256("hiverelay.blind.client-composition-format-hash.v1" || U64BE(len(artifact)) || artifact)

    Scenario: the authority's format hash, computed by the steps from the formula
      Given the reference format artifact
      When the format artifact is verified
      Then the format hash follows the formula of section 4

    @reading:HR-READ-01
    Scenario: the format hash of another valid artifact follows the same formula
      Given the reference format artifact
      And its specBytes is "another spec\n"
      When the format artifact is verified
      Then the format hash follows the formula of section 4
