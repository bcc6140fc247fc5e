@lace
Feature: Record-link fields carry typed hash references
  A Plex application field named +Link or ending with +Link is a
  record-link field. A well-formed value is "<link-data> <target-hash>",
  split at the last ASCII space. A malformed value leaves the field an
  ordinary, valid field that link indexes ignore.

  An implementation's link index is read from the optional "links" and
  "malformed_links" of its lace.record result; implementations that do not
  report them skip those steps. The conventions (chunk sequences and
  directories, lace.chunks and lace.directory) show link reading too.

  Rule: LACE-LINK-01 A field named +Link or ending with +Link is a record-link field and stays an ordinary sorted, hash-significant field under the same count and line limits

    @reading:LACE-READ-18
    Scenario Outline: <name> is a record-link field
      Given a Plex with field "<name>: evidence S.EXAMPLE_SEAL_HASH.H3"
      When it is parsed
      Then its record links are:
        | name   | link data | target                 |
        | <name> | evidence  | S.EXAMPLE_SEAL_HASH.H3 |

      Examples:
        | name          |
        | +Link         |
        | Chunk+Link    |
        | Evidence+Link |
        | é+Link        |

    Scenario Outline: <name> is no record-link field
      Given a Plex with field "<name>: evidence S.EXAMPLE_SEAL_HASH.H3"
      When it is parsed
      Then it is accepted as a plex
      And it has no record links

      Examples:
        | name   |
        | Link   |
        | +link  |
        | +Links |
        | Link+  |
        | +Link2 |

    Scenario: Link fields sort by name like any field
      Given a Plex with fields "Zed+Link: a B.x.H3" and "App: chat"
      When it is parsed
      Then it is rejected by rule LACE-PLEX-08

    Scenario: Link fields count toward the 512 occurrences
      Given a Plex with 513 fields "+Link: a B.x.H3"
      When it is parsed
      Then it is rejected by rule LACE-PLEX-03

  Rule: LACE-LINK-02 In a well-formed record-link value the link data is non-empty

    Scenario: A value that starts with its separator space has empty link data
      Given a Plex with field "+Link:  B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"
      When it is parsed
      Then it is accepted as a plex
      And the field "+Link:  B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3" is not a record link, by rule LACE-LINK-02

  Rule: LACE-LINK-03 The final separator before the target hash is exactly one ASCII space

    Scenario Outline: A value without a separator space is no link (<case>)
      Given a Plex with field "+Link: <value>"
      When it is parsed
      Then it is accepted as a plex
      And the field "+Link: <value>" is not a record link, by rule LACE-LINK-03

      Examples:
        | case                      | value                                                      |
        | a target alone            | B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3           |
        | data glued to the target  | evidenceB.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3   |

  Rule: LACE-LINK-04 The target hash is typed record-hash text beginning with B., P. or S.

    Scenario Outline: A target that is not typed record-hash text makes no link (<case>)
      Given a Plex with field "+Link: evidence <target>"
      When it is parsed
      Then it is accepted as a plex
      And the field "+Link: evidence <target>" is not a record link, by rule LACE-LINK-04

      Examples:
        | case                    | target     |
        | type letter X           | X.abc.H3   |
        | a lower-case type       | b.abc.H3   |
        | a By key                | V.abc.H3   |
        | the type alone          | B.         |
        | a word                  | tomorrow   |

      @reading:LACE-READ-18
      Examples: typed, but no T.<payload>.<suffix>
        | case                    | target     |
        | no payload              | B..H3      |
        | no suffix               | B.abc      |
        | an empty suffix         | B.abc.     |

    @reading:LACE-READ-18=typed-prefix-only
    Scenario Outline: Under reading typed-prefix-only, a target that begins with B., P. or S. and holds more is a link target (<case>)
      Given a Plex with field "+Link: evidence <target>"
      When it is parsed
      Then its record links are:
        | name  | link data | target   |
        | +Link | evidence  | <target> |

      Examples:
        | case                    | target     |
        | no payload              | B..H3      |
        | no suffix               | B.abc      |
        | an empty suffix         | B.abc.     |

  Rule: LACE-LINK-05 Parsing a link does not require the target suffix to be H3

    Scenario Outline: A target with the suffix <suffix> is a link target
      Given a Plex with field "+Link: evidence B.abc.<suffix>"
      When it is parsed
      Then its record links are:
        | name  | link data | target           |
        | +Link | evidence  | B.abc.<suffix>   |

      Examples:
        | suffix |
        | H9     |
        | SHA256 |

      @reading:LACE-READ-18
      Examples: H3, whose payload abc is no digest
        | suffix |
        | H3     |

    Scenario: The last dot ends the payload, so a payload may hold dots
      Given a Plex with field "+Link: evidence S.a.b.c.H9"
      When it is parsed
      Then its record links are:
        | name  | link data | target      |
        | +Link | evidence  | S.a.b.c.H9  |

  Rule: LACE-LINK-06 The record definition named by the target suffix defines the target payload syntax and validation

    @reading:LACE-READ-18
    Scenario: A link's H3 payload is not validated by link parsing
      Given a Plex with field "+Link: evidence B.not-B64A.H3"
      When it is parsed
      Then its record links are:
        | name  | link data | target          |
        | +Link | evidence  | B.not-B64A.H3   |

    @reading:LACE-READ-18=h3-payload-checked
    Scenario: Under reading h3-payload-checked, a link whose H3 payload is no canonical digest is malformed, its record valid
      Given a Plex with field "+Link: evidence B.not-B64A.H3"
      When it is parsed
      Then it is accepted as a plex
      And the field "+Link: evidence B.not-B64A.H3" is not a record link, by rule LACE-LINK-04

    Scenario: A consumer that follows the link validates it as H3 hash text
      Given the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.not-B64A.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-06

  Rule: LACE-LINK-07 Link data is application-defined text and may contain spaces

    @reading:LACE-READ-18
    Scenario: Link data with spaces
      Given a Plex with field "+Link: my evidence file S.EXAMPLE_SEAL_HASH.H3"
      When it is parsed
      Then its record links are:
        | name  | link data          | target                 |
        | +Link | my evidence file   | S.EXAMPLE_SEAL_HASH.H3 |

  Rule: LACE-LINK-08 Readers split a link value at the last ASCII space without trimming either part; preceding spaces are link data

    Scenario: "name  B.<digest>.H3" carries the link data "name " with its trailing space
      Given a Plex with field "+Link: name  B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"
      When it is parsed
      Then its record links are:
        | name  | link data | target                                           |
        | +Link | "name "   | B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3 |

    @reading:LACE-READ-18
    Scenario: Leading spaces of the value are link data too
      Given a Plex with field "+Link:   name B.abc.H3"
      When it is parsed
      Then its record links are:
        | name  | link data | target   |
        | +Link | "  name"  | B.abc.H3 |

    @reading:LACE-READ-18
    Scenario: Text that looks like a target before the last space is link data
      Given a Plex with field "+Link: a B.abc.H3 P.def.H3"
      When it is parsed
      Then its record links are:
        | name  | link data  | target   |
        | +Link | a B.abc.H3 | P.def.H3 |

    Scenario: A directory lists the file "name " under its exact bytes
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: name  B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path    | target   |
        | "name " | B.<a>.H3 |

  Rule: LACE-LINK-09 Name, separator, link data, separator space and target hash share the 128-byte field-line budget

    Scenario Outline: A link line of <length> bytes is <outcome>
      Given the Blob "a" with data "abc"
      And a Plex with field "+Link: {<n> × d} B.<a>.H3"
      And its field line is <length> bytes
      When it is parsed
      Then <result>

      Examples:
        | n  | length | outcome  | result                               |
        | 72 | 128    | accepted | it is accepted as a plex             |
        | 73 | 129    | rejected | it is rejected by rule LACE-FIELD-11 |

  Rule: LACE-LINK-10 A malformed record-link value does not invalidate an otherwise valid field occurrence; it stays an ordinary application field

    Scenario: A record with a malformed link value is a valid record with that field
      Given a Plex with fields "+Link: nothing-to-see" and "App: chat"
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states
      And its fields are:
        | name  | value          |
        | +Link | nothing-to-see |
        | App   | chat           |

    Scenario: The constructor accepts a malformed link value as an ordinary field
      Given a constructor specification with the fields:
        | name       | value |
        | Chunk+Link | 0..3  |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        Chunk+Link: 0..3
        🖧: B.<digest>.H3
        Data-Length: 0


        """

  Rule: LACE-LINK-11 Layers that index record links ignore malformed link values

    @reading:LACE-READ-18
    Scenario: Only the well-formed links are indexed
      Given a Plex with fields "+Link: good B.abc.H3", "+Link: bad", "+Link: also good P.def.H3" and "Note+Link: n X.bad.H3"
      When it is parsed
      Then its record links are:
        | name  | link data | target   |
        | +Link | good      | B.abc.H3 |
        | +Link | also good | P.def.H3 |
      And the field "+Link: bad" is not a record link, by rule LACE-LINK-03
      And the field "Note+Link: n X.bad.H3" is not a record link, by rule LACE-LINK-04

  Rule: LACE-LINK-12 A link whose target format is unsupported may be indexed as a target but yields validated record facts only once its bytes validate under a supported record definition

    Scenario: A link to an unsupported format is indexed as a target
      Given a Plex with field "File+Link: notes.txt B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H9"
      When it is parsed
      Then its record links are:
        | name      | link data | target                                           |
        | File+Link | notes.txt | B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H9 |

    Scenario: A consumer that needs the target's record does not accept an unsupported format as one
      Given the Blob "a" with data "hello"
      And the Plex "root" with the fields:
        """
        File+Link: notes.txt B.<a>.H9
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-24

  Rule: LACE-LINK-13 The spec's examples "+Link: evidence S.EXAMPLE_SEAL_HASH.H3" and "Chunk+Link: 0..33554432 B.EXAMPLE_BLOB_HASH.H3" are record-link fields whose symbolic targets are well-formed when the payload is left to the suffix's record definition (project-defined: LACE-READ-18's default)

    @reading:LACE-READ-18
    Scenario: The spec's two example links
      Given a Plex with fields "+Link: evidence S.EXAMPLE_SEAL_HASH.H3" and "Chunk+Link: 0..33554432 B.EXAMPLE_BLOB_HASH.H3"
      When it is parsed
      Then it is accepted as a plex
      And its record links are:
        | name       | link data   | target                 |
        | +Link      | evidence    | S.EXAMPLE_SEAL_HASH.H3 |
        | Chunk+Link | 0..33554432 | B.EXAMPLE_BLOB_HASH.H3 |

    @reading:LACE-READ-18=h3-payload-checked
    Scenario: Under reading h3-payload-checked, the spec's two example links are malformed links of a valid record
      Given a Plex with fields "+Link: evidence S.EXAMPLE_SEAL_HASH.H3" and "Chunk+Link: 0..33554432 B.EXAMPLE_BLOB_HASH.H3"
      When it is parsed
      Then it is accepted as a plex
      And it has no record links
      And the field "+Link: evidence S.EXAMPLE_SEAL_HASH.H3" is not a record link, by rule LACE-LINK-04

  Rule: LACE-LINK-14 A record that violates an opt-in convention stays a valid H3 record when it satisfies the generic rules

    Scenario: A chunk node whose range does not start at zero is a valid Plex but no valid chunk node
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 1..4 B.<a>.H3
        Kind: chunks
        """
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-16

    Scenario: A directory with a malformed link is a valid Plex but no valid directory
      Given the Plex "root" with the fields:
        """
        Kind: directory
        Page+Link: 0
        """
      When it is parsed
      Then it is accepted as a plex
      When the directory "root" is listed
      Then it is rejected by rule LACE-LINK-15

  Rule: LACE-LINK-15 Convention consumers check every raw field occurrence, including malformed links omitted from RecordLink facts

    Scenario Outline: A malformed Chunk+Link is not skipped: the consumer rejects the chunk node (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        <fields>
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-LINK-15

      Examples:
        | case                  | fields                                  |
        | no target             | Chunk+Link: 0..3\nKind: chunks          |
        | a target of type X    | Chunk+Link: 0..3 X.<a>.H3\nKind: chunks |

    Scenario Outline: A malformed directory link is not skipped: the consumer rejects the directory (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        <fields>
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-LINK-15

      Examples:
        | case                          | fields                                  |
        | a Page+Link without target    | Kind: directory\nPage+Link: 0           |
        | a File+Link without suffix    | File+Link: a B.<a>\nKind: directory     |
        | a Child+Link without target   | Child+Link: docs\nKind: directory       |

  Rule: LACE-LINK-16 The conventions reserve no names: Kind and the convention link names are ordinary application names in any Plex

    Scenario: The convention names with values no convention accepts, in a Plex with data
      Given the Blob "a" with data "abc"
      And the Plex "odd" with data "hello" and the fields:
        """
        Child+Link: x
        Chunk+Link: 9..1 B.<a>.H3
        File+Link: a B.<a>.H3
        Kind: notes
        Page+Link: first B.<a>.H3
        """
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states

  Rule: LACE-LINK-17 The conventions change no generic constructor rule: File+Link and Child+Link runs keep caller order

    Scenario: A constructor keeps File+Link and Child+Link occurrences in caller order
      Given a constructor specification with the fields:
        | name       | value                                                  |
        | File+Link  | z.txt B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3 |
        | Kind       | directory                                              |
        | File+Link  | a.txt B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3 |
        | Child+Link | y B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3     |
        | Child+Link | b B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3     |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        Child+Link: y B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Child+Link: b B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        File+Link: z.txt B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        File+Link: a.txt B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Kind: directory
        🖧: B.<digest>.H3
        Data-Length: 0


        """

  Rule: LACE-LINK-18 Lace acquires no links: a record whose link targets are absent is valid, alone and in a stream

    Scenario: A Plex whose links name a record the input does not hold
      Given the Plex "p" with data "hello" and the fields:
        """
        +Link: evidence B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Chunk+Link: 0..5 B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        """
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states
      Given a stream of the records "p"
      When it is parsed as a stream
      Then the stream holds the records "p"
