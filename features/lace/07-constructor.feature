@lace
Feature: Generic constructors select one record form
  An application-facing constructor takes data bytes, an ordered sequence
  of application field occurrences and optionally a By-secret, and selects
  the stored form exactly as follows:

    empty specification               -> empty Blob
    only data                         -> Blob
    one or more fields                -> Plex
    By-secret with no fields          -> error
    By-secret plus one or more fields -> Seal over Plex

  The constructor is asked through lace.construct with a JSON
  specification the steps write from the table of fields, the data and
  the By-secret.

  Rule: LACE-CTOR-01 An empty constructor specification gives the empty Blob

    Scenario: The empty specification
      Given an empty constructor specification
      When it is constructed
      Then the constructed record is:
        """
        🖧: B.<digest>.H3
        Data-Length: 0


        """

  Rule: LACE-CTOR-02 A specification with only data gives a Blob

    Scenario Outline: Data alone gives a Blob of exactly that data (<case>)
      Given a constructor specification with data "<data>"
      When it is constructed
      Then the constructed record is:
        """
        🖧: B.<digest>.H3
        Data-Length: <n>

        <data>
        """

      Examples:
        | case                       | data              | n  |
        | text                       | hello             | 5  |
        | bytes that are not UTF-8   | \x00\xFF\r\n      | 4  |
        | bytes that look like a field | App: chat\n     | 10 |

  Rule: LACE-CTOR-03 A specification with one or more fields and no By-secret gives a Plex

    Scenario: One field gives a Plex
      Given a constructor specification with the fields:
        | name | value |
        | App  | chat  |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """

    Scenario: Fields and data give a Plex over that data
      Given a constructor specification with the fields:
        | name | value |
        | App  | chat  |
      And the data is "hello"
      When it is constructed
      Then it constructs a plex
      When the constructed record is parsed
      Then it is accepted as a plex
      And its embedded Blob is "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"

  Rule: LACE-CTOR-04 A By-secret with no fields is an error

    Scenario: A By-secret alone is refused
      Given an empty constructor specification
      And the By-secret is 32 bytes of 0x07
      When it is constructed
      Then it is rejected by rule LACE-CTOR-04

    Scenario: A By-secret with data but no fields is refused: a Seal never wraps a bare Blob
      Given a constructor specification with data "hello"
      And the By-secret is 32 bytes of 0x07
      And the auxRand32 is 32 bytes of 0x01
      When it is constructed
      Then it is rejected by rule LACE-CTOR-04

  Rule: LACE-CTOR-05 A By-secret plus one or more fields gives a Seal over the Plex

    @needs-lace-mark-bip340-standin
    Scenario: A By-secret and one field give a Seal by that key over the Plex
      Given a constructor specification with the fields:
        | name | value |
        | App  | chat  |
      And the data is "hello"
      And the By-secret is 32 bytes of 0x07
      And the auxRand32 is 32 bytes of 0x01
      When it is constructed
      Then the constructed record is:
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
      When the constructed record is parsed with mark checking "bip340-standin"
      Then it is accepted as a seal
      And its Mark is verified

    Scenario: Whatever the Mark scheme, the Seal wraps exactly the Plex of the same fields and data
      Given the Plex "p" with data "hello" and the fields:
        """
        App: chat
        """
      And a constructor specification with the fields:
        | name | value |
        | App  | chat  |
      And the data is "hello"
      And the By-secret is 32 bytes of 0x07
      And the auxRand32 is 32 bytes of 0x01
      When it is constructed
      Then it constructs a seal
      When the constructed record is parsed with mark checking "none"
      Then it is accepted as a seal
      And its embedded Plex is "P.<p>.H3"

  Rule: LACE-CTOR-06 Omitted data means empty bytes

    Scenario: Fields without data give the same record as fields with empty data
      Given the Plex "expected" with the fields:
        """
        App: chat
        """
      And a constructor specification with the fields:
        | name | value |
        | App  | chat  |
      When it is constructed
      Then the constructed record is the record "expected"

    Scenario: Empty data given explicitly is the empty specification's Blob
      Given the Blob "empty" with data ""
      And a constructor specification with data ""
      When it is constructed
      Then the constructed record is the record "empty"

  Rule: LACE-CTOR-07 Constructors do not manufacture an application field, placeholder, identifier, scope, time or version

    Scenario: The Plex holds exactly the caller's one field
      Given a constructor specification with the fields:
        | name | value |
        | Note | hi    |
      When it is constructed
      When the constructed record is parsed
      Then its fields are:
        | name | value |
        | Note | hi    |

    @needs-lace-mark-bip340-standin
    Scenario: The Seal adds only By and Mark, both from the By-secret
      Given a constructor specification with the fields:
        | name | value |
        | Note | hi    |
      And the By-secret is 32 bytes of 0x07
      And the auxRand32 is 32 bytes of 0x01
      When it is constructed
      Then the constructed record is:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: P.<digest>.H3
        Note: hi
        🖧: B.<digest>.H3
        Data-Length: 0


        """

  Rule: LACE-CTOR-08 Constructors validate field names and values by the field-line rules

    Scenario Outline: A field that breaks a field-line rule is refused (<case>)
      Given a constructor specification with the fields:
        | name   | value   |
        | App    | chat    |
        | <name> | <value> |
      When it is constructed
      Then it is rejected by rule <rule>

      Examples:
        | case                    | name     | value             | rule          |
        | an empty name           | ""       | x                 | LACE-FIELD-02 |
        | a space in the name     | My App   | x                 | LACE-FIELD-03 |
        | a colon in the name     | App:     | x                 | LACE-FIELD-03 |
        | an empty value          | Note     | ""                | LACE-FIELD-05 |
        | a value not NFC         | Note     | e\u{301}          | LACE-FIELD-07 |
        | a CR in the value       | Note     | a\rb              | LACE-FIELD-09 |
        | a NUL in the value      | Note     | a\x00b            | LACE-FIELD-10 |
        | a 129-byte line         | Note     | {123 × n}         | LACE-FIELD-11 |

    Scenario: A valid field of 128 bytes is accepted
      Given a constructor specification with the fields:
        | name | value     |
        | Note | {122 × n} |
      When it is constructed
      Then it constructs a plex

  Rule: LACE-CTOR-09 Constructors reject reserved field names

    Scenario Outline: The reserved name <name> is refused
      Given a constructor specification with the fields:
        | name   | value |
        | <name> | x     |
      When it is constructed
      Then it is rejected by rule LACE-CTOR-09

      Examples:
        | name        |
        | Data-Length |
        | By          |
        | Mark        |
        | 🖧          |
        | ⋯🖧         |

    Scenario: A caller cannot supply the Seal's By as a field
      Given a constructor specification with the fields:
        | name | value                                            |
        | By   | V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3 |
        | Note | hi                                               |
      And the By-secret is 32 bytes of 0x07
      When it is constructed
      Then it is rejected by rule LACE-CTOR-09

  Rule: LACE-CTOR-10 Constructors derive By and the Mark from the supplied By-secret; a public By value is record output, never a constructor input

    @needs-lace-mark-bip340-standin
    Scenario: The By of the constructed Seal is the one the By-secret derives
      Given a constructor specification with the fields:
        | name | value |
        | Note | hi    |
      And the By-secret is 32 bytes of 0x07
      When it is constructed
      When the constructed record is parsed with mark checking "bip340-standin"
      Then it is accepted as a seal
      And its By is "<By>"
      And its Mark is verified

    @needs-lace-mark-bip340-standin
    Scenario Outline: A By-secret the stand-in scheme cannot use is refused (<case>)
      Given a constructor specification with the fields:
        | name | value |
        | Note | hi    |
      And the By-secret is 32 bytes of 0x<byte>
      When it is constructed
      Then it is rejected by rule LACE-CTOR-10

      Examples:
        | case                          | byte |
        | zero                          | 00   |
        | not below the group order     | ff   |
