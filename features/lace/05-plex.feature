@lace
Feature: Plex records attach generic fields to a Blob
  A Plex holds one or more application field occurrences followed by one
  complete embedded Blob. Field occurrences sort by name bytes; same-name
  occurrences are consecutive and keep caller order.

  Rule: LACE-PLEX-01 A Plex canonical payload is its application field lines followed immediately by one complete embedded Blob record

    Scenario: A Plex of two fields and an embedded Blob
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: chat
        Group: room7
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states
      And its embedded Blob is "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"
      And its data is 5 bytes

    Scenario: A blank line between the fields and the embedded Blob is rejected
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: chat

        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-FIELD-01

    Scenario: Without the embedded Blob's glyph line, Data-Length is read as an application field
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: chat
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-PLEX-10

  Rule: LACE-PLEX-02 A Plex has at least one application field occurrence

    Scenario: A Plex glyph followed immediately by the embedded Blob has zero fields
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-PLEX-02

  Rule: LACE-PLEX-03 A Plex has at most 512 application field occurrences

    Scenario: 513 occurrences are rejected
      Given a Plex with 513 fields "F: x"
      When it is parsed
      Then it is rejected by rule LACE-PLEX-03

    Scenario: The constructor refuses 513 occurrences
      Given a constructor specification with 513 fields "F" and "x"
      When it is constructed
      Then it is rejected by rule LACE-PLEX-03

    Scenario: The constructor accepts 512 occurrences
      Given a constructor specification with 512 fields "F" and "x"
      When it is constructed
      Then it is accepted
      When the constructed record is parsed
      Then it is accepted as a plex

  @should
  Rule: LACE-PLEX-04 By convention applications prefer "#<application>: <kind>" fields over generic labels such as "Kind: dots"

    Scenario: "#Dots: game" is an ordinary field that sorts before alphabetic names
      Given a constructor specification with the fields:
        | name  | value |
        | App   | chat  |
        | #Dots | game  |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        #Dots: game
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """

    Scenario: A Plex with an application-kind field parses like any other
      Given a Plex with fields "#Dots: game" and "Score: 7"
      When it is parsed
      Then its fields are:
        | name  | value |
        | #Dots | game  |
        | Score | 7     |

  Rule: LACE-PLEX-05 Plex application field occurrences sort by field name in bytewise ascending UTF-8 order

    Scenario: The constructor sorts names by bytes: upper case, then "_", then lower case, then non-ASCII
      Given a constructor specification with the fields:
        | name | value |
        | é    | 6     |
        | b    | 5     |
        | _    | 3     |
        | a    | 4     |
        | Z    | 2     |
        | B    | 1     |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        B: 1
        Z: 2
        _: 3
        a: 4
        b: 5
        é: 6
        🖧: B.<digest>.H3
        Data-Length: 0


        """

    Scenario: A name sorts after its own prefix, and "+" sorts before letters
      Given a Plex with fields "App: 1", "App+Link: 2" and "AppX: 3"
      When it is parsed
      Then it is accepted as a plex

  Rule: LACE-PLEX-06 Occurrences with the same name are consecutive and retain caller order

    Scenario: "Label: second", "Label: first", "Mode: public" parse in that order
      Given a Plex with fields "Label: second", "Label: first" and "Mode: public"
      When it is parsed
      Then its fields are:
        | name  | value  |
        | Label | second |
        | Label | first  |
        | Mode  | public |

    Scenario: Same-name occurrences split by another name are rejected
      Given a Plex with fields "A: 1", "B: 2" and "A: 3"
      When it is parsed
      Then it is rejected by rule LACE-PLEX-08

    Scenario: The constructor gathers same-name occurrences in caller order
      Given a constructor specification with the fields:
        | name  | value  |
        | Label | second |
        | Mode  | public |
        | Label | first  |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        Label: second
        Label: first
        Mode: public
        🖧: B.<digest>.H3
        Data-Length: 0


        """

  Rule: LACE-PLEX-07 A constructor preserves supplied order among same-name occurrences while sorting different names

    Scenario: Three Tag occurrences keep their order while Note moves before them
      Given a constructor specification with the fields:
        | name | value |
        | Tag  | z     |
        | Note | n     |
        | Tag  | a     |
        | Tag  | m     |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        Note: n
        Tag: z
        Tag: a
        Tag: m
        🖧: B.<digest>.H3
        Data-Length: 0


        """

  Rule: LACE-PLEX-08 A parser rejects a decrease in adjacent field-name bytes

    Scenario Outline: A decrease in name bytes is rejected (<case>)
      Given a Plex with fields <lines>
      When it is parsed
      Then it is rejected by rule LACE-PLEX-08

      Examples:
        | case                         | lines                            |
        | Mode before Label            | "Mode: public" and "Label: first" |
        | a name before its prefix     | "AppX: 1" and "App: 2"            |
        | lower case before upper case | "a: 1" and "B: 2"                 |
        | non-ASCII before ASCII       | "é: 1" and "z: 2"                 |

    Scenario: Decreasing field-name order: the canonical vector with Name before Group, hashes recomputed (Boundary and rejection examples)
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: chat
        App: archive
        Name: note
        Group: room7
        TAI: tomorrow
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-PLEX-08

  Rule: LACE-PLEX-09 Values do not participate in canonical field ordering

    Scenario: Same-name values in descending order are accepted
      Given a Plex with fields "Label: z" and "Label: a"
      When it is parsed
      Then it is accepted as a plex

    Scenario: The constructor does not sort values
      Given a constructor specification with the fields:
        | name  | value |
        | Label | z     |
        | Label | a     |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        Label: z
        Label: a
        🖧: B.<digest>.H3
        Data-Length: 0


        """

  Rule: LACE-PLEX-10 A Plex application field using a reserved name (Data-Length, By, Mark, 🖧 or ⋯🖧) is invalid

    Scenario Outline: The reserved name <name> is rejected as an application field
      Given a Plex with field "<name>: x"
      When it is parsed
      Then it is rejected by rule LACE-PLEX-10

      Examples:
        | name        |
        | Data-Length |
        | By          |
        | Mark        |
        | ⋯🖧         |

    Scenario: A line named 🖧 among the fields is the embedded glyph line, so "🖧: x" holds no hash text
      Given a Plex with fields "App: chat" and "🖧: x"
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-02

    Scenario: A reserved application field name: "By: x" in the canonical vector, hashes recomputed (Boundary and rejection examples)
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: chat
        App: archive
        By: x
        Group: room7
        Name: note
        TAI: tomorrow
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-PLEX-10

  Rule: LACE-PLEX-11 The reserved names are exactly Data-Length, By, Mark, 🖧 and ⋯🖧; every other valid name is an ordinary application name

    Scenario Outline: <name> is an ordinary application name
      Given a Plex with field "<name>: x"
      When it is parsed
      Then its fields are:
        | name   | value |
        | <name> | x     |

      Examples:
        | name         |
        | data-length  |
        | DATA-LENGTH  |
        | Data-Length2 |
        | BY           |
        | Bye          |
        | Marks        |
        | By+Link      |
        | 🖧🖧         |
        | ⋯            |
        | ⋯🖧⋯         |

  Rule: LACE-PLEX-12 Applications, not the record layer, define schemas: a conventional name that repeats, or none at all, leaves a valid record

    Scenario Outline: <case> is a valid Plex
      Given a Plex with data "hello" and fields <fields>
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states

      Examples:
        | case                               | fields                                       |
        | Kind twice                         | "Kind: chunks" and "Kind: directory"         |
        | an application-kind field twice    | "#Dots: game", "#Dots: match" and "Name: x"  |
        | no Kind and no application kind    | "Name: note"                                 |
