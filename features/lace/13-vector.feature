@lace
Feature: A canonical vector covers all three record forms
  The spec's complete records are byte-exact. Their five data bytes are
  "hello", with no LF after the final "o". The two App occurrences keep
  caller order (chat, then archive).

  Rule: LACE-VEC-01 The canonical Blob is byte-exact with hash B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3

    Scenario: The canonical Blob parses with its stated hash
      Given the Lace record:
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is accepted as a blob with hash "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"
      And its data is 5 bytes

    Scenario: The constructor makes the canonical Blob from the data alone
      Given a constructor specification with data "hello"
      When it is constructed
      Then the constructed record is:
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """

    Scenario: An LF after the final o is a sixth data byte, not part of the canonical Blob
      Given the Lace record:
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello

        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-08

  Rule: LACE-VEC-02 The canonical Plex is byte-exact with hash P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3

    Scenario: The canonical Plex parses with its stated hash and fields
      Given the Lace record:
        """
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
      When it is parsed
      Then it is accepted as a plex with hash "P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3"
      And its embedded Blob is "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"
      And its fields are:
        | name  | value    |
        | App   | chat     |
        | App   | archive  |
        | Group | room7    |
        | Name  | note     |
        | TAI   | tomorrow |

    Scenario: The constructor makes the canonical Plex byte for byte
      Given a constructor specification with the fields:
        | name  | value    |
        | TAI   | tomorrow |
        | App   | chat     |
        | Name  | note     |
        | App   | archive  |
        | Group | room7    |
      And the data is "hello"
      When it is constructed
      Then the constructed record is:
        """
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

  Rule: LACE-VEC-03 The canonical Seal is byte-exact with hash S.ZGEVHbEEKmCMF2aSbmbQ4~trwxANOQFmraeGg_JAp9C.H3 and canonical By and Mark text

    Scenario: Without Mark checking the canonical Seal's structure, hashes and text are checked, its Mark is not
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
      When it is parsed with mark checking "none"
      Then it is accepted as a seal with hash "S.ZGEVHbEEKmCMF2aSbmbQ4~trwxANOQFmraeGg_JAp9C.H3"
      And its embedded Plex is "P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3"
      And its embedded Blob is "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"
      And its By is "V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3"
      And its Mark is "t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl"
      And its Mark is not checked

    Scenario: One changed character of the canonical Seal's By text breaks the Seal hash
      Given the Lace record:
        """
        🖧: S.ZGEVHbEEKmCMF2aSbmbQ4~trwxANOQFmraeGg_JAp9C.H3
        By: V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP4.H3
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

  Rule: LACE-VEC-04 The two App occurrences keep caller order (chat, then archive) although their values would sort differently

    Scenario: Sorting the App values makes another, invalid Plex under the canonical hash
      Given the Lace record:
        """
        🖧: P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3
        App: archive
        App: chat
        Group: room7
        Name: note
        TAI: tomorrow
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-06

    Scenario: The constructor keeps chat before archive
      Given a constructor specification with the fields:
        | name  | value    |
        | App   | chat     |
        | App   | archive  |
        | Group | room7    |
        | Name  | note     |
        | TAI   | tomorrow |
      And the data is "hello"
      When it is constructed
      Then it constructs a plex with hash "P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3"

  Rule: LACE-VEC-05 The canonical Seal's Mark is the 009 Mark by the secret of 32 0x07 bytes with auxRand32 of 32 0x01 bytes over the displayed Plex digest

    @needs-lace-009
    Scenario: Under 009 the canonical Seal's Mark verifies
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
      When it is parsed with mark checking "009"
      Then it is accepted as a seal with hash "S.ZGEVHbEEKmCMF2aSbmbQ4~trwxANOQFmraeGg_JAp9C.H3"
      And its Mark is verified

    @needs-lace-009
    Scenario: Under 009 the constructor makes the canonical Seal from the By-secret and auxRand32
      Given a constructor specification with the fields:
        | name  | value    |
        | App   | chat     |
        | App   | archive  |
        | Group | room7    |
        | Name  | note     |
        | TAI   | tomorrow |
      And the data is "hello"
      And the By-secret is 32 bytes of 0x07
      And the auxRand32 is 32 bytes of 0x01
      When it is constructed
      Then it constructs a seal with hash "S.ZGEVHbEEKmCMF2aSbmbQ4~trwxANOQFmraeGg_JAp9C.H3"

    Scenario: Without Mark checking the canonical Seal's Mark is never reported as verified
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
      When it is parsed with mark checking "none"
      Then it is accepted as a seal
      And its Mark is not checked

    @needs-lace-mark-bip340-standin
    Scenario: The stand-in scheme is not 009: it rejects the canonical Seal's Mark
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
      When it is parsed with mark checking "bip340-standin"
      Then it is rejected by rule LACE-SEAL-07
