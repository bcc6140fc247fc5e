@lace
Feature: Maximum H3 record size is bounded
  At maximum Blob data length a complete Blob is at most 33,554,510 bytes.
  A Plex adds one 55-byte glyph line and at most 512 field lines of 129
  bytes, for at most 33,620,613 bytes. A Seal adds one 55-byte glyph line, a
  53-byte By line and a 93-byte Mark line, for at most 33,620,814 bytes.

  Rule: LACE-SIZE-01 At maximum data length a complete Blob is at most 33,554,510 bytes

    Scenario: The largest Blob
      Given a Blob with data "{33554432 × b}"
      And the record is 33554510 bytes
      When it is parsed
      Then it is accepted as a blob with the hash its glyph line states
      And its data is 33554432 bytes

  Rule: LACE-SIZE-02 A Plex adds one 55-byte glyph line and at most 512 field lines of 129 bytes, for at most 33,620,613 bytes

    Scenario: The largest Plex
      Given a Plex with data "{33554432 × b}" and 512 fields "X: {125 × a}"
      And its field line is 128 bytes
      And the record is 33620613 bytes
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states

  Rule: LACE-SIZE-03 A Seal adds one 55-byte glyph line, a 53-byte By line and a 93-byte Mark line, for at most 33,620,814 bytes

    Scenario: The largest Seal
      Given the Plex "largest" with data "{33554432 × b}" and 512 fields "X: {125 × a}"
      And the Seal "seal" over the Plex "largest", signed with the stand-in key
      And the record is 33620814 bytes
      When it is parsed with mark checking "none"
      Then it is accepted as a seal with the hash its glyph line states

  Rule: LACE-SIZE-04 Implementations validate structure rather than accepting a record merely because it fits the maximum

    Scenario: A Blob of the maximum size with a wrong digest is rejected
      Given the Lace record:
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 33554432

        {33554432 × b}
        """
      And the record is 33554510 bytes
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-06

    Scenario: A small input well under every maximum is no record
      Given the text "🖧: B.\n"
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-02
