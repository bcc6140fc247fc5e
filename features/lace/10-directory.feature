@lace
Feature: Directory links name files, children and continuation pages
  A directory root or page is an H3 Plex with empty data, exactly one
  "Kind: directory" and only File+Link (filename, Blob or chunk-node
  target), Child+Link (directory name, directory target) and Page+Link
  (ordinal, directory target) fields.

  lace.directory is given a record stream whose first record is the root;
  the steps put the named root first and every other record of the scenario
  after it. Its listing holds every file and child directory at every
  placement, with its path and target, sorted by path bytes. Bounds are
  arguments: max_depth counts the links followed from the root,
  max_expansion every link followed (repeats included), max_bytes the
  assembled bytes of a file.

  Rule: LACE-DIR-01 A directory root or page is an H3 Plex

    Scenario: A directory of one file and one child
      Given the Blob "a" with data "abc"
      And the Plex "docs" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: docs P.<docs>.H3
        File+Link: a.txt B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path  | target      | kind |
        | a.txt | B.<a>.H3    | file |
        | docs  | P.<docs>.H3 | dir  |

    Scenario: A Blob is no directory
      Given the Blob "root" with data "Kind: directory\n"
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-01

    Scenario: A Seal over a directory is no directory
      Given the Plex "dir" with the fields:
        """
        Kind: directory
        """
      And the Seal "root" over the Plex "dir", signed with the stand-in key
      When the directory "root" is listed with mark checking "none"
      Then it is rejected by rule LACE-DIR-01

  Rule: LACE-DIR-02 A directory root or page has empty Blob data

    Scenario: A directory with data is rejected
      Given the Plex "root" with data "index" and the fields:
        """
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-02

  Rule: LACE-DIR-03 A directory root or page has exactly one "Kind: directory" field

    Scenario Outline: A record without exactly one Kind: directory is rejected (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        <fields>
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-03

      Examples:
        | case                | fields                                                   |
        | no Kind             | File+Link: a B.<a>.H3                                    |
        | Kind: dir           | File+Link: a B.<a>.H3\nKind: dir                         |
        | Kind: chunks        | Chunk+Link: 0..3 B.<a>.H3\nKind: chunks                  |
        | two Kind fields     | File+Link: a B.<a>.H3\nKind: directory\nKind: directory  |

    Scenario: A chunk node is no child directory
      Given the Blob "a" with data "abc"
      And the Plex "node" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        Child+Link: sub P.<node>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-03

  Rule: LACE-DIR-04 A directory's only other application fields are File+Link, Child+Link and Page+Link

    Scenario Outline: Another field in a directory is rejected (<field>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        <fields>
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-04

      Examples:
        | field          | fields                                          |
        | Name           | Kind: directory\nName: site                     |
        | a +Link        | +Link: a B.<a>.H3\nKind: directory              |
        | a Chunk+Link   | Chunk+Link: 0..3 B.<a>.H3\nKind: directory      |
        | a #Dots kind   | #Dots: game\nKind: directory                    |

  Rule: LACE-DIR-05 A File+Link's link data is a filename and its target a canonical H3 Blob or chunk-node Plex hash

    Scenario: A file may be a chunk node
      Given the Blob "a" with data "abc"
      And the Plex "movie" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..6 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        File+Link: movie.mp4 P.<movie>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path      | target       |
        | movie.mp4 | P.<movie>.H3 |

    Scenario: A file whose chunk node is invalid makes the directory invalid
      Given the Blob "a" with data "abc"
      And the Plex "movie" with the fields:
        """
        Chunk+Link: 0..4 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        File+Link: movie.mp4 P.<movie>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-CHUNK-18

    Scenario: A file target that is not canonical H3 hash text is rejected
      Given the Plex "root" with the fields:
        """
        File+Link: a.txt B.abc.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-05

    @reading:LACE-READ-05
    Scenario: A file target with nonzero pad bits is rejected, though the Blob it decodes to is present
      # B.kQIYZC1_…zq9.H3 is the hash of the Blob "h" (…zq8) with one pad bit set.
      Given the Blob "h" with data "hello"
      And the Plex "root" with the fields:
        """
        File+Link: hello.txt B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq9.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-05

  Rule: LACE-DIR-06 A Child+Link's link data is a directory name and its target a canonical H3 directory Plex hash

    Scenario: A child target that is not canonical H3 hash text is rejected
      Given the Plex "root" with the fields:
        """
        Child+Link: docs P.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq9.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-06

    @reading:LACE-READ-05
    Scenario: A child target with nonzero pad bits is rejected, though the directory it decodes to is present
      # P.nqzg…UNu.H3 is the hash of the Plex "empty" (…UNt) with one pad bit set.
      Given the Plex "empty" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: docs P.nqzgybw12aT9GRAGax97qtgQxy7UZaHw7qmrhDS1UNu.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-06

  Rule: LACE-DIR-07 A Page+Link's link data is a local decimal ordinal and its target a canonical H3 directory Plex hash

    Scenario: A page target that is not canonical H3 hash text is rejected
      Given the Plex "root" with the fields:
        """
        Kind: directory
        Page+Link: 0 P.abc.H3
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-07

    @reading:LACE-READ-05
    Scenario: A page target with nonzero pad bits is rejected, though the page it decodes to is present
      # P.nqzg…UNu.H3 is the hash of the Plex "empty" (…UNt) with one pad bit set.
      Given the Plex "empty" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Kind: directory
        Page+Link: 0 P.nqzgybw12aT9GRAGax97qtgQxy7UZaHw7qmrhDS1UNu.H3
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-07

  Rule: LACE-DIR-08 An empty directory has only "Kind: directory" and is valid

    Scenario: The empty directory lists nothing
      Given the Plex "root" with the fields:
        """
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is empty

    Scenario: An empty child directory is still listed
      Given the Plex "empty" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: nothing P.<empty>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path    | target       |
        | nothing | P.<empty>.H3 |

  Rule: LACE-DIR-09 A name is one non-empty component

    Scenario Outline: An empty <field> name is rejected
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        <field>:  <target>
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-09

      Examples:
        | field      | target     |
        | File+Link  | B.<a>.H3   |
        | Child+Link | P.<sub>.H3 |

  Rule: LACE-DIR-10 A name is UTF-8 in NFC

    Scenario: A precomposed name is listed byte for byte
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: caf\u{E9}.txt B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path     | target   |
        | café.txt | B.<a>.H3 |

    Scenario: A name that is not NFC already breaks the field-line rules of its record
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: cafe\u{301}.txt B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-FIELD-07

  Rule: LACE-DIR-11 A name is neither "." nor ".."

    Scenario Outline: The <field> name "<name>" is rejected
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        <field>: <name> <target>
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-11

      Examples:
        | field      | name | target     |
        | File+Link  | .    | B.<a>.H3   |
        | File+Link  | ..   | B.<a>.H3   |
        | Child+Link | .    | P.<sub>.H3 |
        | Child+Link | ..   | P.<sub>.H3 |

    Scenario: "...", ".hidden" and "a." are ordinary names
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: ... B.<a>.H3
        File+Link: .hidden B.<a>.H3
        File+Link: a. B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path    | target   |
        | ...     | B.<a>.H3 |
        | .hidden | B.<a>.H3 |
        | a.      | B.<a>.H3 |

  Rule: LACE-DIR-12 A name contains no "/"

    Scenario Outline: A name holding "/" is rejected (<name>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: <name> B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-12

      Examples:
        | name      |
        | a/b       |
        | /         |
        | /etc      |
        | docs/     |

    Scenario: A backslash is no separator
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: a\\b B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path | target   |
        | a\x5Cb | B.<a>.H3 |

  Rule: LACE-DIR-13 A name contains no C0 or DEL control bytes

    Scenario Outline: A name with <what> already breaks the field-line rules of its record
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: a<byte>b B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-FIELD-10

      Examples:
        | what  | byte  |
        | NUL   | \x00  |
        | TAB   | \t    |
        | ESC   | \x1B  |
        | DEL   | \x7F  |

    Scenario: Printable punctuation and non-ASCII letters are name bytes
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: Q3 report (final)~#1.txt B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path                        | target   |
        | Q3 report (final)~#1.txt    | B.<a>.H3 |

  Rule: LACE-DIR-14 Accepted names keep their exact bytes, including leading and trailing spaces; consumers never trim, normalize, truncate or alias names

    Scenario: Names differing only by spaces, case or compatibility forms are distinct entries
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link:  a B.<a>.H3
        File+Link: A B.<a>.H3
        File+Link: a B.<a>.H3
        File+Link: a  B.<a>.H3
        File+Link: \u{FB01} B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path      | target   |
        | " a"      | B.<a>.H3 |
        | A         | B.<a>.H3 |
        | a         | B.<a>.H3 |
        | "a "      | B.<a>.H3 |
        | \u{FB01}  | B.<a>.H3 |

  Rule: LACE-DIR-15 With 48-byte H3 targets the 128-byte line limit permits 68 filename bytes for File+Link and 67 directory-name bytes for Child+Link

    Scenario Outline: A <field> name of <n> bytes is <outcome>
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        <field>: <name> <target>
        Kind: directory
        """
      When the directory "root" is listed
      Then <result>

      Examples:
        | field      | n  | name       | target     | outcome  | result                               |
        | File+Link  | 68 | {68 × f}   | B.<a>.H3   | accepted | the listing has 1 entries            |
        | File+Link  | 69 | {69 × f}   | B.<a>.H3   | rejected | it is rejected by rule LACE-FIELD-11 |
        | File+Link  | 68 | {34 × é}   | B.<a>.H3   | accepted | the listing has 1 entries            |
        | File+Link  | 70 | {35 × é}   | B.<a>.H3   | rejected | it is rejected by rule LACE-FIELD-11 |
        | Child+Link | 67 | {67 × d}   | P.<sub>.H3 | accepted | the listing has 1 entries            |
        | Child+Link | 68 | {68 × d}   | P.<sub>.H3 | rejected | it is rejected by rule LACE-FIELD-11 |

  Rule: LACE-DIR-16 Within each record File+Link occurrences sort by filename bytes; a decrease is rejected

    Scenario: File names in decreasing order are rejected
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: b.txt B.<a>.H3
        File+Link: a.txt B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-16

    Scenario: Upper case sorts before lower case
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: b.txt B.<a>.H3
        File+Link: README B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-16

  Rule: LACE-DIR-17 Within each record Child+Link occurrences sort by directory-name bytes; a decrease is rejected

    Scenario: Directory names in decreasing order are rejected
      Given the Plex "sub" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: src P.<sub>.H3
        Child+Link: docs P.<sub>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-17

    Scenario: Files and children are two sequences: a child may sort after a file name
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: zeta P.<sub>.H3
        File+Link: alpha B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing has 2 entries

  Rule: LACE-DIR-18 Readers compare parsed names, not complete link values

    Scenario: "a" before "a A" is name order, though the value "a B.…" sorts after "a A B.…"
      Given the Blob "x" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: a B.<x>.H3
        File+Link: a A B.<x>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path | target   |
        | a    | B.<x>.H3 |
        | a A  | B.<x>.H3 |

    Scenario: "a A" before "a" is a decrease, though the values increase
      Given the Blob "x" with data "abc"
      And the Plex "root" with the fields:
        """
        File+Link: a A B.<x>.H3
        File+Link: a B.<x>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-16

  Rule: LACE-DIR-19 Each Page+Link ordinal is canonical unsigned decimal text equal to its same-name occurrence index: 0, 1, and so on

    Scenario Outline: Page ordinals other than 0, 1, … are rejected (<case>)
      Given the Plex "p" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Kind: directory
        <pages>
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-19

      Examples:
        | case                | pages                                          |
        | starting at 1       | Page+Link: 1 P.<p>.H3                          |
        | a leading zero      | Page+Link: 00 P.<p>.H3                         |
        | zero twice          | Page+Link: 0 P.<p>.H3\nPage+Link: 0 P.<p>.H3   |
        | a gap               | Page+Link: 0 P.<p>.H3\nPage+Link: 2 P.<p>.H3   |
        | a name, not a number | Page+Link: first P.<p>.H3                     |

    Scenario: Pages 0 and 1
      Given the Blob "a" with data "abc"
      And the Plex "p0" with the fields:
        """
        File+Link: one B.<a>.H3
        Kind: directory
        """
      And the Plex "p1" with the fields:
        """
        File+Link: two B.<a>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Kind: directory
        Page+Link: 0 P.<p0>.H3
        Page+Link: 1 P.<p1>.H3
        """
      When the directory "root" is listed
      Then the listing is:
        | path | target   |
        | one  | B.<a>.H3 |
        | two  | B.<a>.H3 |

  Rule: LACE-DIR-20 A logical directory unions its direct entries with those reached through pages; pages add no path component and a child starts a new logical directory

    Scenario: A root, its page, a child and the child's page
      Given the Blob "a" with data "abc"
      And the Plex "docs-page" with the fields:
        """
        File+Link: guide.md B.<a>.H3
        Kind: directory
        """
      And the Plex "docs" with the fields:
        """
        File+Link: index.md B.<a>.H3
        Kind: directory
        Page+Link: 0 P.<docs-page>.H3
        """
      And the Plex "page" with the fields:
        """
        Child+Link: docs P.<docs>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        File+Link: index.html B.<a>.H3
        Kind: directory
        Page+Link: 0 P.<page>.H3
        """
      When the directory "root" is listed
      Then the listing is:
        | path          | target      | kind |
        | docs          | P.<docs>.H3 | dir  |
        | docs/guide.md | B.<a>.H3    | file |
        | docs/index.md | B.<a>.H3    | file |
        | index.html    | B.<a>.H3    | file |

  Rule: LACE-DIR-21 Names are unique across the entire logical directory, over both entry kinds and all pages, even for repeated same-target declarations

    Scenario Outline: A repeated name is rejected (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        Kind: directory
        """
      And the Plex "page" with the fields:
        """
        <page fields>
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        <root fields>
        Kind: directory
        Page+Link: 0 P.<page>.H3
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-21

      Examples:
        | case                             | root fields                                  | page fields             |
        | one file twice, same target      | File+Link: a B.<a>.H3\nFile+Link: a B.<a>.H3 | File+Link: b B.<a>.H3   |
        | a file and a child               | Child+Link: a P.<sub>.H3\nFile+Link: a B.<a>.H3 | File+Link: b B.<a>.H3 |
        | the root and its page            | File+Link: a B.<a>.H3                        | File+Link: a B.<a>.H3   |
        | a child in the root, a file in the page | Child+Link: a P.<sub>.H3              | File+Link: a B.<a>.H3   |

    Scenario: The same name in two different directories is fine
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        File+Link: readme B.<a>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: sub P.<sub>.H3
        File+Link: readme B.<a>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path       | target     |
        | readme     | B.<a>.H3   |
        | sub        | P.<sub>.H3 |
        | sub/readme | B.<a>.H3   |

  Rule: LACE-DIR-22 No name ordering is required between pages

    Scenario: A root's names may sort after its page's names
      Given the Blob "a" with data "abc"
      And the Plex "page" with the fields:
        """
        File+Link: alpha B.<a>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        File+Link: zulu B.<a>.H3
        Kind: directory
        Page+Link: 0 P.<page>.H3
        """
      When the directory "root" is listed
      Then the listing is:
        | path  | target   |
        | alpha | B.<a>.H3 |
        | zulu  | B.<a>.H3 |

  Rule: LACE-DIR-23 Every referenced page, child and file exists and validates; missing entries are never silently omitted

    Scenario Outline: A missing <what> is rejected
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        <fields>
        """
      And the record "<missing>" is left out of the stream
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-23

      Examples:
        | what  | missing | fields                                        |
        | file  | a       | File+Link: a B.<a>.H3\nKind: directory        |
        | child | sub     | Child+Link: s P.<sub>.H3\nKind: directory     |
        | page  | sub     | Kind: directory\nPage+Link: 0 P.<sub>.H3      |

    Scenario: An empty stream holds no root directory
      When the directory of an empty stream is listed
      Then it is rejected by rule LACE-DIR-23

    Scenario: A file whose chunk is missing is rejected
      Given the Blob "a" with data "abc"
      And the Plex "movie" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        File+Link: movie P.<movie>.H3
        Kind: directory
        """
      And the record "a" is left out of the stream
      When the directory "root" is listed
      Then it is rejected by rule LACE-CHUNK-20

  Rule: LACE-DIR-24 A target with an unsupported (non-H3) hash format is invalid rather than a missing dependency

    Scenario Outline: A <field> target with the suffix <suffix> is rejected, present or not
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        <line>
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-24

      Examples:
        | field      | suffix | line                                         |
        | File+Link  | H9     | File+Link: a B.<a>.H9\nKind: directory       |
        | Child+Link | H4     | Child+Link: s P.<sub>.H4\nKind: directory    |
        | Page+Link  | h3     | Kind: directory\nPage+Link: 0 P.<sub>.h3     |

  Rule: LACE-DIR-25 A target of the wrong family (B., P. or S. not allowed for its field) is invalid rather than a missing dependency

    Scenario Outline: A <field> to a <family> is rejected
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        Kind: directory
        """
      And the Seal "sealed" over the Plex "sub", signed with the stand-in key
      And the Plex "root" with the fields:
        """
        <line>
        """
      When the directory "root" is listed with mark checking "none"
      Then it is rejected by rule LACE-DIR-25

      Examples:
        | field      | family | line                                           |
        | File+Link  | Seal   | File+Link: a S.<sealed>.H3\nKind: directory    |
        | Child+Link | Blob   | Child+Link: s B.<a>.H3\nKind: directory        |
        | Child+Link | Seal   | Child+Link: s S.<sealed>.H3\nKind: directory   |
        | Page+Link  | Blob   | Kind: directory\nPage+Link: 0 B.<a>.H3         |

  Rule: LACE-DIR-26 One Kind field leaves at most 511 links per record; pages may reference further pages, so the first record's capacity does not bound a logical directory

    Scenario: 510 files and one page in the root, 300 more files in the page
      Given the Blob "a" with data "abc"
      And the directory "page" with 300 files named "p-N" linking "a"
      And the directory "root" with 510 files named "r-N" linking "a" and the fields:
        """
        Page+Link: 0 P.<page>.H3
        """
      When the directory "root" is listed
      Then the listing has 810 entries

    Scenario: A page may reference a further page
      Given the Blob "a" with data "abc"
      And the Plex "second" with the fields:
        """
        File+Link: two B.<a>.H3
        Kind: directory
        """
      And the Plex "first" with the fields:
        """
        File+Link: one B.<a>.H3
        Kind: directory
        Page+Link: 0 P.<second>.H3
        """
      And the Plex "root" with the fields:
        """
        Kind: directory
        Page+Link: 0 P.<first>.H3
        """
      When the directory "root" is listed
      Then the listing is:
        | path | target   |
        | one  | B.<a>.H3 |
        | two  | B.<a>.H3 |

    Scenario: 512 links and a Kind are 513 fields, no valid Plex
      Given the Blob "a" with data "abc"
      And the directory "root" with 512 files named "f-N" linking "a"
      When the directory "root" is listed
      Then it is rejected by rule LACE-PLEX-03

  Rule: LACE-DIR-27 Reusing a child subtree under different names is valid and expands at each placement

    Scenario: One subtree under two names
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        File+Link: f B.<a>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: one P.<sub>.H3
        Child+Link: two P.<sub>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path  | target     |
        | one   | P.<sub>.H3 |
        | one/f | B.<a>.H3   |
        | two   | P.<sub>.H3 |
        | two/f | B.<a>.H3   |

  Rule: LACE-DIR-28 Page layout is hash-significant even when two layouts describe the same names and files

    Scenario: Two layouts of the same listing are two records
      Given the Blob "a" with data "abc"
      And the Plex "flat" with the fields:
        """
        File+Link: x B.<a>.H3
        File+Link: y B.<a>.H3
        Kind: directory
        """
      And the Plex "page" with the fields:
        """
        File+Link: y B.<a>.H3
        Kind: directory
        """
      And the Plex "paged" with the fields:
        """
        File+Link: x B.<a>.H3
        Kind: directory
        Page+Link: 0 P.<page>.H3
        """
      When the directory "flat" is listed
      Then the listing is:
        | path | target   |
        | x    | B.<a>.H3 |
        | y    | B.<a>.H3 |
      When the directory "paged" is listed
      Then the listing is:
        | path | target   |
        | x    | B.<a>.H3 |
        | y    | B.<a>.H3 |
      Given a stream of the records "flat" and "paged"
      When it is parsed as a stream
      Then the stream holds the records "flat" and "paged"

  Rule: LACE-DIR-29 Consumers bound reference depth (project-defined)

    @reading:LACE-READ-17
    Scenario Outline: A file three links from the root (root, b, b/c, b/c/f) under max_depth <depth> is <outcome>
      Given the Blob "a" with data "abc"
      And the Plex "d3" with the fields:
        """
        File+Link: f B.<a>.H3
        Kind: directory
        """
      And the Plex "d2" with the fields:
        """
        Child+Link: c P.<d3>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: b P.<d2>.H3
        Kind: directory
        """
      When the directory "root" is listed with max_depth <depth>
      Then <result>

      Examples:
        | depth | outcome  | result                             |
        | 3     | accepted | the listing has 3 entries          |
        | 2     | rejected | it is rejected by rule LACE-DIR-29 |

    @reading:LACE-READ-17
    Scenario Outline: A Blob two links from the root chunk node under max_depth <depth> is <outcome>
      Given the Blob "a" with data "abc"
      And the Plex "inner" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 P.<inner>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled with max_depth <depth>
      Then <result>

      Examples:
        | depth | outcome  | result                             |
        | 2     | accepted | the assembled file is "abc"        |
        | 1     | rejected | it is rejected by rule LACE-DIR-29 |

    @reading:LACE-READ-17=records-on-path
    Scenario Outline: Under reading records-on-path, a Blob two links from the root chunk node, the third record on its path, under max_depth <depth> is <outcome>
      Given the Blob "a" with data "abc"
      And the Plex "inner" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 P.<inner>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled with max_depth <depth>
      Then <result>

      Examples:
        | depth | outcome  | result                             |
        | 3     | accepted | the assembled file is "abc"        |
        | 2     | rejected | it is rejected by rule LACE-DIR-29 |

  Rule: LACE-DIR-30 Consumers bound logical expansion, counting repeated uses rather than only distinct hashes (project-defined)

    @reading:LACE-READ-17
    Scenario Outline: A subtree placed twice counts twice: four uses under max_expansion <n> are <outcome>
      Given the Blob "a" with data "abc"
      And the Plex "sub" with the fields:
        """
        File+Link: f B.<a>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: one P.<sub>.H3
        Child+Link: two P.<sub>.H3
        Kind: directory
        """
      When the directory "root" is listed with max_expansion <n>
      Then <result>

      Examples:
        | n | outcome  | result                             |
        | 4 | accepted | the listing has 4 entries          |
        | 3 | rejected | it is rejected by rule LACE-DIR-30 |

    @reading:LACE-READ-17
    Scenario Outline: One Blob used twice counts twice: two uses under max_expansion <n> are <outcome>
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..6 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled with max_expansion <n>
      Then <result>

      Examples:
        | n | outcome  | result                             |
        | 2 | accepted | the assembled file is "abcabc"     |
        | 1 | rejected | it is rejected by rule LACE-DIR-30 |

    @reading:LACE-READ-17=records-on-path
    Scenario Outline: Under reading records-on-path, one Blob used twice is three records entered, the root among them, under max_expansion <n>: <outcome>
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..6 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled with max_expansion <n>
      Then <result>

      Examples:
        | n | outcome  | result                             |
        | 3 | accepted | the assembled file is "abcabc"     |
        | 2 | rejected | it is rejected by rule LACE-DIR-30 |

    Scenario Outline: Six assembled bytes under max_bytes <n> are <outcome>
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..6 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled with max_bytes <n>
      Then <result>

      Examples:
        | n | outcome  | result                             |
        | 6 | accepted | the assembled file is "abcabc"     |
        | 5 | rejected | it is rejected by rule LACE-DIR-30 |

  Rule: LACE-DIR-31 Consumers reject reference cycles

    # A cycle of H3 links needs a record whose BLAKE3 digest its own links
    # reach: a BLAKE3 preimage. No record stream can hold one, so no scenario
    # can show a rejected cycle (the reference's unit tests build one with a
    # store that does not key records by their hashes). What streams can show
    # is that sharing is not mistaken for a cycle.

    Scenario: A subtree reached along two paths is no cycle
      Given the Blob "a" with data "abc"
      And the Plex "shared" with the fields:
        """
        File+Link: f B.<a>.H3
        Kind: directory
        """
      And the Plex "left" with the fields:
        """
        Child+Link: s P.<shared>.H3
        Kind: directory
        """
      And the Plex "right" with the fields:
        """
        Child+Link: s P.<shared>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: l P.<left>.H3
        Child+Link: r P.<right>.H3
        Kind: directory
        """
      When the directory "root" is listed
      Then the listing is:
        | path    | target        |
        | l       | P.<left>.H3   |
        | l/s     | P.<shared>.H3 |
        | l/s/f   | B.<a>.H3      |
        | r       | P.<right>.H3  |
        | r/s     | P.<shared>.H3 |
        | r/s/f   | B.<a>.H3      |

    Scenario: A page reached twice is no cycle, but it repeats its names
      Given the Blob "a" with data "abc"
      And the Plex "page" with the fields:
        """
        File+Link: f B.<a>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Kind: directory
        Page+Link: 0 P.<page>.H3
        Page+Link: 1 P.<page>.H3
        """
      When the directory "root" is listed
      Then it is rejected by rule LACE-DIR-21

  Rule: LACE-DIR-32 A consumer's bounds change no generic record limit: records a bounded directory consumer refuses are still a valid stream

    Scenario: A chain a bound refuses is a valid stream of valid records
      Given the Plex "d3" with the fields:
        """
        Kind: directory
        """
      And the Plex "d2" with the fields:
        """
        Child+Link: c P.<d3>.H3
        Kind: directory
        """
      And the Plex "root" with the fields:
        """
        Child+Link: b P.<d2>.H3
        Kind: directory
        """
      When the directory "root" is listed with max_depth 1
      Then it is rejected by rule LACE-DIR-29
      Given a stream of the records "root", "d2" and "d3"
      When it is parsed as a stream
      Then the stream holds the records "root", "d2" and "d3"

    Scenario: A chain 65 links deep, one past the reference's default depth bound, is a valid stream
      Given the directory "root" heading a chain of 65 child directories
      And a stream of every record of the scenario, "root" first
      When it is parsed as a stream
      Then it is accepted
