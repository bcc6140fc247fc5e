@lace
Feature: Seal records carry one Mark over one Plex
  A Seal holds exactly the structural By and Mark lines followed by one
  complete embedded Plex. The Mark subject is the 32 decoded digest bytes of
  the embedded Plex glyph.

  The real Marks of Lace document 009 are not available to this suite
  (docs/lace.md). Scenarios that check a Mark use the project's stand-in
  scheme (BIP-340 Schnorr over secp256k1) and need its profile (tag
  needs-lace-mark-bip340-standin): "<By>" is the By of the stand-in key
  (the By-secret of 32 0x07 bytes), "<Mark over X>" its Mark over the
  digest of X. Scenarios about structure and text parse with mark checking
  "none", which any implementation offers.

  Rule: LACE-SEAL-01 A Seal canonical payload is exactly the By line, the Mark line and one complete embedded Plex record

    @needs-lace-mark-bip340-standin
    Scenario: A Seal by the stand-in key over a Plex verifies
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "bip340-standin"
      Then it is accepted as a seal with the hash its glyph line states
      And its By is "<By>"
      And its Mark is verified
      And its embedded Blob is "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"

    Scenario: Without Mark checking the same Seal is accepted and its Mark is not claimed verified
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "none"
      Then it is accepted as a seal with the hash its glyph line states
      And its Mark is not checked

    Scenario: A blank line between the Mark line and the embedded Plex is rejected
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>

        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-FIELD-01

    Scenario: A Seal that ends after its Mark line is cut short
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl

        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-STREAM-03

  Rule: LACE-SEAL-02 By appears first in a Seal

    Scenario Outline: A Seal whose first line is not By is rejected (<case>)
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        <envelope>🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-SEAL-02

      Examples:
        | case                                                        | envelope                                   |
        | a Seal missing By (Boundary and rejection examples)          | Mark: <Mark over the Plex>\n               |
        | a Seal reordering By and Mark (Boundary and rejection examples) | Mark: <Mark over the Plex>\nBy: <By>\n  |
        | no envelope at all                                          |                                            |
        | another field first                                         | Note: x\nBy: <By>\nMark: <Mark over the Plex>\n |

  Rule: LACE-SEAL-03 By contains canonical V.<b64a>.H3 verification-key text as defined by 009

    Scenario Outline: By text that is not canonical is rejected (<case>)
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <by>
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
      Then it is rejected by rule LACE-SEAL-03

      Examples:
        | case                                            | by                                                   |
        | an invalid By: another type letter (Boundary and rejection examples) | W.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3 |
        | a record hash instead of a key                  | P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3     |
        | 42 key characters                               | V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP.H3      |
        | another suffix                                  | V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H4     |
        | no V. and no suffix                             | 8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0          |
        | a trailing space                                | V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3\x20 |

      @reading:LACE-READ-05
      Examples: nonzero pad bits are not canonical
        | case             | by                                               |
        | nonzero pad bits | V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP1.H3 |

  Rule: LACE-SEAL-04 Mark appears second in a Seal

    Scenario Outline: A Seal whose second line is not Mark is rejected (<case>)
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        <envelope>🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-SEAL-04

      Examples:
        | case                                                  | envelope                                 |
        | a Seal missing Mark (Boundary and rejection examples)  |                                          |
        | By twice                                              | By: <By>\nMark: <Mark over the Plex>\n   |
        | another field second                                  | Note: x\nMark: <Mark over the Plex>\n    |

  Rule: LACE-SEAL-05 Mark contains one canonical 009 Mark (86 B64A characters)

    Scenario Outline: Mark text that is not one canonical Mark is rejected (<case>)
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3
        Mark: <mark>
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
      Then it is rejected by rule LACE-SEAL-05

      Examples:
        | case                                                   | mark                                                                                      |
        | an invalid Mark: 85 characters (Boundary and rejection examples) | t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbP |
        | 87 characters                                          | t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl0  |
        | a character outside the alphabet                       | t9QAUgyE1c391D6RsPH+gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl   |
        | a padding character                                    | t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl=  |
        | a trailing space                                       | t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl\x20 |

      @reading:LACE-READ-05
      Examples: nonzero pad bits are not canonical
        | case             | mark                                                                                   |
        | nonzero pad bits | t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPm |

  Rule: LACE-SEAL-06 The Mark subject is the 32 decoded digest bytes of the immediately embedded Plex glyph; a Mark over the Blob or Seal digest is invalid

    @needs-lace-mark-bip340-standin
    Scenario: A Mark made over the Blob digest (Boundary and rejection examples)
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Blob>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "bip340-standin"
      Then it is rejected by rule LACE-SEAL-06

  Rule: LACE-SEAL-07 Readers verify the Mark under By

    @needs-lace-mark-bip340-standin
    Scenario: A Mark by the right key over another Plex is rejected
      Given the Plex "other" with the fields:
        """
        App: archive
        """
      And the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over other>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "bip340-standin"
      Then it is rejected by rule LACE-SEAL-07

    @needs-lace-mark-bip340-standin
    Scenario Outline: A Mark that does not verify under By is rejected (<case>)
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <by>
        Mark: <mark>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "bip340-standin"
      Then it is rejected by rule LACE-SEAL-07

      Examples:
        | case                               | by         | mark                                   |
        | a Mark by another key              | <By>       | <Mark by the other key over the Plex>  |
        | the By of another key              | <other By> | <Mark over the Plex>                   |

    @needs-lace-mark-bip340-standin
    Scenario: A Mark made over a Seal digest (Boundary and rejection examples)
      Given the Plex "p" with the fields:
        """
        App: chat
        """
      And the Seal "good" over the Plex "p", signed with the stand-in key
      And the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over good>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "bip340-standin"
      Then it is rejected by rule LACE-SEAL-07

    Scenario: Without Mark checking, a Mark over the wrong subject is not detected and not claimed verified
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Blob>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "none"
      Then it is accepted as a seal
      And its Mark is not checked

  Rule: LACE-SEAL-08 A Seal cannot wrap a bare Blob

    Scenario: A Seal whose envelope is followed by a Blob is rejected
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Blob>
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-SEAL-08

  Rule: LACE-SEAL-09 A Seal contains no additional envelope fields beside By and Mark

    Scenario Outline: An envelope field after Mark is rejected (<field>)
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        <field>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule LACE-SEAL-09

      Examples:
        | field                        |
        | Note: signed today           |
        | Mark: <Mark over the Plex>   |
        | By: <By>                     |
