@lace
Feature: Every stored record starts with a record glyph line
  Every stored record starts with "🖧: <hash-text>". For H3 the hash text is
  T.<b64a>.H3, T being B, P or S, and the B64A payload is the BLAKE3-256
  digest of every canonical byte after the glyph line's LF: 32 bytes, 43
  canonical B64A characters.

  In these scenarios "<digest>" in a glyph line stands for the digest the
  steps compute over every byte after that line; each record a text nests
  runs to the end of the text.

  Rule: LACE-GLYPH-01 Every stored record starts with a record glyph line "🖧: <hash-text>"

    Scenario: A Blob starting with its glyph line is accepted
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 2

        hi
        """
      When it is parsed
      Then it is accepted as a blob with the hash its glyph line states

    Scenario Outline: A record that does not start with "🖧: " is rejected (<case>)
      Given the Lace record:
        """
        <first line>
        Data-Length: 2

        hi
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-01

      Examples:
        | case                            | first line            |
        | no space after the colon        | 🖧:B.<digest>.H3      |
        | the reserved name ⋯🖧           | ⋯🖧: B.<digest>.H3    |
        | a byte order mark first         | \xEF\xBB\xBF🖧: B.<digest>.H3 |
        | a field line instead of a glyph | Kind: B.<digest>.H3   |

    Scenario: A Blob payload without its glyph line is rejected
      Given the text "Data-Length: 5\n\nhello"
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-01

    Scenario: Empty input is no stored record
      Given the text ""
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-01

  Rule: LACE-GLYPH-02 For H3 the hash text is T.<b64a>.H3, where T is B, P or S

    Scenario Outline: Glyph hash text of another shape is rejected (<case>)
      Given the Lace record:
        """
        🖧: <hash text>
        Data-Length: 2

        hi
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-02

      Examples:
        | case                     | hash text         |
        | type letter X            | X.<digest>.H3     |
        | lower-case type letter   | b.<digest>.H3     |
        | type letter V of a By    | V.<digest>.H3     |
        | no dot after the type    | B<digest>.H3      |
        | lower-case suffix        | B.<digest>.h3     |
        | another suffix           | B.<digest>.H4     |
        | no suffix                | B.<digest>        |
        | a second space first     | \x20B.<digest>.H3 |

    Scenario Outline: Each type letter names its form (<letter>)
      Given the Lace record "r":
        """
        <record>
        """
      When it is parsed with mark checking "none"
      Then it is accepted as a <form> with hash "<letter>.<r>.H3"

      Examples:
        | letter | form | record                                                                                                   |
        | B      | blob | 🖧: B.<digest>.H3\nData-Length: 2\n\nhi                                                                  |
        | P      | plex | 🖧: P.<digest>.H3\nApp: chat\n🖧: B.<digest>.H3\nData-Length: 2\n\nhi                                    |
        | S      | seal | 🖧: S.<digest>.H3\nBy: <By>\nMark: <Mark over the Plex>\n🖧: P.<digest>.H3\nApp: chat\n🖧: B.<digest>.H3\nData-Length: 2\n\nhi |

  Rule: LACE-GLYPH-03 The B64A payload of the hash text is the BLAKE3-256 digest of every canonical byte after the glyph line's LF

    Scenario: The hash of the empty Blob covers its Data-Length line and blank line
      Given the Lace record:
        """
        🖧: B.<digest of "Data-Length: 0\n\n">.H3
        Data-Length: 0


        """
      When it is parsed
      Then it is accepted as a blob with the hash its glyph line states
      And its data is 0 bytes

    Scenario: A Blob hash over its data alone is wrong
      Given the Lace record:
        """
        🖧: B.<digest of "hello">.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-06

    Scenario: A Plex hash that leaves out the embedded Blob is wrong
      Given the Lace record:
        """
        🖧: P.<digest of "App: chat\n">.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-06

    Scenario: A Plex hash covers the embedded Blob's glyph line
      Given the Lace record:
        """
        🖧: P.<digest of "App: chat\nData-Length: 5\n\nhello">.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-06

  Rule: LACE-GLYPH-04 The digest payload is exactly 32 bytes and therefore exactly 43 canonical B64A characters

    Scenario Outline: Digest text that is not 43 canonical B64A characters is rejected (<case>)
      Given the Lace record:
        """
        🖧: <hash text>
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-04

      Examples:
        | case                               | hash text                                            |
        | 42 characters                      | B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq.H3      |
        | 44 characters                      | B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq80.H3    |
        | a character outside the alphabet   | B.kQIYZC1_+Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3     |
        | a padding character                | B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8=.H3    |
        | no digest at all                   | B..H3                                                |

    @reading:LACE-READ-05
    Scenario: Digest text with nonzero pad bits in its last character is not canonical
      Given the Lace record:
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq9.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-04

    @reading:LACE-READ-05=pad-bits-ignored
    Scenario: Under reading pad-bits-ignored, digest text with nonzero pad bits names the digest it decodes to
      Given the Lace record:
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq9.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is accepted as a blob with hash "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"

    Scenario: The same digest with canonical pad bits is accepted
      Given the Lace record:
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is accepted as a blob

  Rule: LACE-GLYPH-05 Implementations verify that the glyph type B, P or S matches the parsed record form

    Scenario Outline: A glyph type that does not match the payload's form is rejected (<case>)
      Given the Lace record:
        """
        <record>
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-GLYPH-05

      Examples:
        | case                     | record                                                                                  |
        | P over a Blob payload    | 🖧: P.<digest>.H3\nData-Length: 2\n\nhi                                                 |
        | S over a Blob payload    | 🖧: S.<digest>.H3\nData-Length: 2\n\nhi                                                 |
        | B over a Plex payload    | 🖧: B.<digest>.H3\nApp: chat\n🖧: B.<digest>.H3\nData-Length: 2\n\nhi                   |
        | S over a Plex payload    | 🖧: S.<digest>.H3\nApp: chat\n🖧: B.<digest>.H3\nData-Length: 2\n\nhi                   |
        | P over a Seal payload    | 🖧: P.<digest>.H3\nBy: <By>\nMark: <Mark over the Plex>\n🖧: P.<digest>.H3\nApp: chat\n🖧: B.<digest>.H3\nData-Length: 2\n\nhi |

  Rule: LACE-GLYPH-06 Implementations verify that the record's glyph digest matches the BLAKE3-256 digest of its canonical payload

    Scenario: One changed data byte under the canonical Blob hash is rejected
      Given the Lace record:
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hellO
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-06

    Scenario: One changed field value under the canonical Plex hash is rejected
      Given the Lace record:
        """
        🖧: P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3
        App: chat
        App: archive
        Group: room8
        Name: note
        TAI: tomorrow
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-06

    Scenario: A mismatched outer digest: the canonical Seal under another valid-looking hash (Boundary and rejection examples)
      Given the Lace record:
        """
        🖧: S.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl
        🖧: P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3
        App: chat
        App: archive
        Group: room7
        Name: note
        TAI: tomorrow
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-GLYPH-06

  Rule: LACE-GLYPH-07 The glyph digest of every embedded record matches its own canonical payload

    Scenario: A Plex whose embedded Blob glyph does not match its data is rejected, even with the outer hash recomputed
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: chat
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hellO
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-07

    Scenario: A mismatched embedded digest: the canonical Seal's Blob glyph replaced, the Seal hash recomputed (Boundary and rejection examples)
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl
        🖧: P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3
        App: chat
        App: archive
        Group: room7
        Name: note
        TAI: tomorrow
        🖧: B.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-GLYPH-07

    Scenario: A Seal whose embedded Plex glyph does not match the Plex is rejected, even with the Seal hash recomputed
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl
        🖧: P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3
        App: chat
        App: archive
        Group: room8
        Name: note
        TAI: tomorrow
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-GLYPH-07

  Rule: LACE-GLYPH-08 A complete stored record contains exactly one record and no bytes after those its structure and Data-Length consume

    Scenario Outline: Bytes after the canonical Blob are rejected (<case>)
      Given a Blob with data "hello"
      And the text "<trailing>" follows the record
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-08

      Examples:
        | case           | trailing |
        | one byte       | x        |
        | a final LF     | \n       |
        | a final CRLF   | \r\n     |
        | a NUL byte     | \x00     |

    Scenario: Two complete records are not one stored record
      Given the Blob "first" with data "hello"
      And the Blob "second" with data "world"
      And a stream of the records "first" and "second"
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-08

    Scenario: Trailing bytes after a complete record: the canonical Seal and one more byte (Boundary and rejection examples)
      Given the Lace record:
        """
        🖧: S.ZGEVHbEEKmCMF2aSbmbQ4~trwxANOQFmraeGg_JAp9C.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl
        🖧: P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3
        App: chat
        App: archive
        Group: room7
        Name: note
        TAI: tomorrow
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      And the text "x" follows the record
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-GLYPH-08

  @should
  Rule: LACE-GLYPH-09 By convention a file holding exactly one complete stored record ends its name with .lr, after any name its data would take

    Scenario: notes.json.lr holds one record whose data is notes.json; the name is never what makes it valid
      Given a file named "notes.json.lr" with the Lace record:
        """
        🖧: P.<digest>.H3
        Name: notes.json
        🖧: B.<digest>.H3
        Data-Length: 7

        {"n":1}
        """
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states

  Rule: LACE-GLYPH-10 The .lr suffix marks canonical record bytes, not their data; readers still parse and validate such files

    Scenario: A .lr file that holds only the data is rejected
      Given a file named "notes.json.lr" with the bytes "{\"n\":1}"
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-01

    Scenario: A .lr file with a wrong digest is rejected
      Given a file named "hello.lr" with the Lace record:
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        jello
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-06
