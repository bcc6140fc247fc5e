@lace
Feature: Canonical structure determines containment
  The only H3 canonical nesting is: a Blob contains no record; a Plex
  directly embeds one Blob; a Seal directly embeds one Plex, which embeds
  one Blob. Canonical nesting validates the complete outer structure.

  Rule: LACE-NEST-01 A Blob contains no record; its data is never parsed as records

    Scenario: A Blob whose data is a complete Plex is one Blob
      Given the Plex "inner" with the fields:
        """
        App: chat
        """
      And the Lace record "outer":
        """
        🖧: B.<digest>.H3
        Data-Length: 136

        🖧: P.<inner>.H3
        App: chat
        🖧: B.<digest of "Data-Length: 0\n\n">.H3
        Data-Length: 0


        """
      When it is parsed
      Then it is accepted as a blob with the hash its glyph line states
      And its data is 136 bytes

    Scenario: A Blob whose data is an invalid record is still a valid Blob
      Given a Blob with data "🖧: P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3\nBy: nobody\n"
      When it is parsed
      Then it is accepted as a blob

  Rule: LACE-NEST-02 A Plex directly embeds exactly one Blob; an embedded Plex or Seal is invalid

    Scenario: A Plex embedding a Plex is rejected
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: outer
        🖧: P.<digest>.H3
        App: inner
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed
      Then it is rejected by rule LACE-NEST-02

    Scenario: A Plex embedding a Seal is rejected
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: outer
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: P.<digest>.H3
        App: inner
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-NEST-02

    Scenario: A Seal's Plex embedding a Plex is rejected
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: P.<digest>.H3
        App: outer
        🖧: P.<digest>.H3
        App: inner
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-NEST-02

  Rule: LACE-NEST-03 A Seal directly embeds exactly one Plex, which embeds one Blob; an embedded Seal is invalid

    Scenario: A Seal embedding a Seal is rejected
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-NEST-03

    Scenario: A Seal reports the Plex and the Blob it contains
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
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
      Then it is accepted as a seal
      And its embedded Plex is "P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3"
      And its embedded Blob is "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"

  Rule: LACE-NEST-04 Canonical nesting validates the complete outer structure, including every embedded record

    Scenario Outline: A flaw deep inside a Seal rejects the Seal (<case>)
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: P.<digest>.H3
        <field>
        🖧: B.<digest>.H3
        Data-Length: <length>

        hello
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule <rule>

      Examples:
        | case                           | field      | length | rule          |
        | a reserved name in the Plex    | Mark: x    | 5      | LACE-PLEX-10  |
        | a CRLF line in the Plex        | App: x\r   | 5      | LACE-FIELD-09 |
        | too few bytes in the Blob      | App: x     | 6      | LACE-BLOB-04  |
        | a non-canonical Data-Length    | App: x     | 05     | LACE-BLOB-03  |

    Scenario: A wrong digest in the innermost Blob rejects the Seal, even with every outer hash recomputed
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        jello
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-GLYPH-07
