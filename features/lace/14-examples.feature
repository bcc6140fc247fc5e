@lace
Feature: Boundary and rejection examples
  The spec's worked examples, each its own rule. The closing list of
  rejections ("Implementations also reject CRLF, non-NFC line text, ...")
  is covered under the rules that state each item: their scenarios are
  marked "(Boundary and rejection examples)".

  Rule: LACE-EX-01 "X: " plus 125 ASCII "a" (128 bytes) is accepted and "X: " plus 126 (129 bytes) is rejected

    Scenario Outline: "X: " plus <n> "a" is a <length>-byte line and <outcome>
      Given a Plex with field "X: {<n> × a}"
      And its field line is <length> bytes
      When it is parsed
      Then <result>

      Examples:
        | n   | length | outcome  | result                               |
        | 125 | 128    | accepted | it is accepted as a plex             |
        | 126 | 129    | rejected | it is rejected by rule LACE-FIELD-11 |

  Rule: LACE-EX-02 "X: " plus 62 NFC "é" and one "a" (128 bytes) is accepted; one more ASCII byte is rejected

    Scenario Outline: "X: " plus 62 "é" and <tail> is a <length>-byte line and <outcome>
      Given a Plex with field "X: {62 × é}<tail>"
      And its field line is <length> bytes
      When it is parsed
      Then <result>

      Examples:
        | tail | length | outcome  | result                               |
        | a    | 128    | accepted | it is accepted as a plex             |
        | ab   | 129    | rejected | it is rejected by rule LACE-FIELD-11 |

    Scenario: The limit counts bytes, not characters: 63 "é" are 66 characters but 129 bytes
      Given a Plex with field "X: {63 × é}"
      And its field line is 129 bytes
      When it is parsed
      Then it is rejected by rule LACE-FIELD-11

  Rule: LACE-EX-03 A Plex with one application field is valid; a Plex whose glyph is followed immediately by an embedded Blob has zero fields and is invalid

    Scenario Outline: A Plex with <n> fields before its embedded Blob is <outcome>
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        <fields>🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then <result>

      Examples:
        | n | fields      | outcome | result                              |
        | 1 | App: chat\n | valid   | it is accepted as a plex            |
        | 0 |             | invalid | it is rejected by rule LACE-PLEX-02 |

  Rule: LACE-EX-04 A Plex with 512 field occurrences is valid; 513 is invalid

    Scenario Outline: <n> field occurrences are <outcome>
      Given a Plex with <n> fields "F: x"
      When it is parsed
      Then <result>

      Examples:
        | n   | outcome  | result                              |
        | 512 | valid    | it is accepted as a plex            |
        | 513 | invalid  | it is rejected by rule LACE-PLEX-03 |

  Rule: LACE-EX-05 Repeated names are valid and their order is significant: "Label: second", "Label: first", "Mode: public" is valid in this order

    Scenario: The example's three lines are valid in this order
      Given the Plex "given" with the fields:
        """
        Label: second
        Label: first
        Mode: public
        """
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states
      And its fields are:
        | name  | value  |
        | Label | second |
        | Label | first  |
        | Mode  | public |

    Scenario: The two Labels in the other order are another valid record
      Given the Plex "given" with the fields:
        """
        Label: second
        Label: first
        Mode: public
        """
      And the Plex "swapped" with the fields:
        """
        Label: first
        Label: second
        Mode: public
        """
      And a stream of the records "given" and "swapped"
      When it is parsed as a stream
      Then the stream holds the records "given" and "swapped"

  Rule: LACE-EX-06 Reversing Label and Mode is invalid because Mode sorts after Label

    Scenario: Mode before the Labels
      Given a Plex with fields "Mode: public", "Label: second" and "Label: first"
      When it is parsed
      Then it is rejected by rule LACE-PLEX-08

  Rule: LACE-EX-07 Sorting the two Label values is neither required nor permitted as a constructor canonicalization

    Scenario Outline: The constructor keeps "second" before "first" (<case>)
      Given the Plex "expected" with the fields:
        """
        Label: second
        Label: first
        Mode: public
        """
      And a constructor specification with the fields:
        | name   | value   |
        | <n1>   | <v1>    |
        | <n2>   | <v2>    |
        | <n3>   | <v3>    |
      When it is constructed
      Then the constructed record is the record "expected"

      Examples:
        | case                    | n1    | v1     | n2    | v2     | n3    | v3     |
        | given in record order   | Label | second | Label | first  | Mode  | public |
        | given with Mode first   | Mode  | public | Label | second | Label | first  |
        | Mode between the Labels | Label | second | Mode  | public | Label | first  |

  Rule: LACE-EX-08 Moving "Group: room7" before the App lines of the canonical vector and recomputing the Plex and Seal hashes is invalid

    Scenario: The moved Plex, its hash recomputed
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        Group: room7
        App: chat
        App: archive
        Name: note
        TAI: tomorrow
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-PLEX-08

    Scenario: The moved Plex inside the canonical Seal's envelope, both hashes recomputed
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl
        🖧: P.<digest>.H3
        Group: room7
        App: chat
        App: archive
        Name: note
        TAI: tomorrow
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-PLEX-08

  Rule: LACE-EX-09 Replacing the canonical Seal's Mark with the 009 known-answer Mark and recomputing the Seal hash is invalid: that Mark was made over a different digest

    @needs-lace-009
    Scenario: Under 009 the known-answer Mark does not verify over the displayed Plex
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: gZnQE_RNHTpWu8N~RYMGMTjGo~CTh6qutD7ZfmssgOGH8E_wSP3cEf_Q6QGOGpC2Pkl_~4lVP9NtD5gsNxrxhG
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
      When it is parsed with mark checking "009"
      Then it is rejected by rule LACE-SEAL-07

    Scenario: Without Mark checking the known-answer Mark is canonical text, and never reported as verified
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: gZnQE_RNHTpWu8N~RYMGMTjGo~CTh6qutD7ZfmssgOGH8E_wSP3cEf_Q6QGOGpC2Pkl_~4lVP9NtD5gsNxrxhG
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
      Then it is accepted as a seal with the hash its glyph line states
      And its Mark is not checked

    @needs-lace-mark-bip340-standin
    Scenario: The stand-in's version: a Mark by the right key over a different Plex's digest
      Given the Plex "different" with data "hello" and the fields:
        """
        App: archive
        """
      And the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over different>
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
      When it is parsed with mark checking "bip340-standin"
      Then it is rejected by rule LACE-SEAL-07

  Rule: LACE-EX-10 Replacing the Seal's embedded Plex with the displayed Blob and recomputing the Seal hash is invalid because a Seal cannot wrap a Blob

    Scenario: The canonical Seal's envelope over the canonical Blob
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-SEAL-08
