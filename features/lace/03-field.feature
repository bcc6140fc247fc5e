@lace
Feature: Shared field-line rules keep bytes canonical
  A field line has the exact syntax "<Name>: <value>" and ends with LF.
  These scenarios write Plex records field by field; the steps compute
  every hash, so each scenario shows the one rule its line breaks. Step
  text writes bytes a feature file cannot hold as \r, \t, \xHH, \u{HHHH}.

  Rule: LACE-FIELD-01 A field line has the exact syntax "<Name>: <value>" followed by LF; a line without the ": " separator is invalid

    Scenario: "App: chat" is a field line
      Given a Plex with field "App: chat"
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states
      And its fields are:
        | name | value |
        | App  | chat  |

    Scenario Outline: A line without a colon is no field line (<case>)
      Given a Plex with fields <lines>
      When it is parsed
      Then it is rejected by rule LACE-FIELD-01

      Examples:
        | case                           | lines                     |
        | a space instead of ": "        | "App chat"                |
        | a blank line among the fields  | "App: chat" and ""        |
        | a bare word                    | "Kind"                    |

  Rule: LACE-FIELD-02 Field names are non-empty

    Scenario: A line starting with ": " has an empty name
      Given a Plex with field ": chat"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-02

    Scenario: The constructor refuses an empty name
      Given a constructor specification with the fields:
        | name | value |
        | ""   | chat  |
      When it is constructed
      Then it is rejected by rule LACE-FIELD-02

  Rule: LACE-FIELD-03 Field names contain no ":", space or tab

    Scenario Outline: A name holding <what> is rejected
      Given a Plex with field "<line>"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-03

      Examples:
        | what    | line       |
        | a space | Ap p: x    |
        | a tab   | Ap\tp: x   |
        | a colon | a:b: c     |

    Scenario: The separator is the first ": ", so later ones belong to the value
      Given a Plex with field "Note: a: b"
      When it is parsed
      Then its fields are:
        | name | value |
        | Note | a: b  |

    Scenario Outline: The constructor refuses a name holding <what>
      Given a constructor specification with the fields:
        | name   | value |
        | <name> | x     |
      When it is constructed
      Then it is rejected by rule LACE-FIELD-03

      Examples:
        | what    | name  |
        | a space | Na me |
        | a tab   | Na\tme |
        | a colon | a:b   |

  Rule: LACE-FIELD-04 Exactly one ASCII space follows the ":" that ends the name

    Scenario Outline: A colon not followed by a space is rejected (<case>)
      Given a Plex with field "<line>"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-04

      Examples:
        | case               | line        |
        | no space           | App:chat    |
        | a tab              | App:\tchat  |
        | a colon at the end | App:        |

  Rule: LACE-FIELD-05 Field values are non-empty

    Scenario: "App: " with nothing after the space has an empty value
      Given a Plex with field "App:\x20"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-05

    Scenario: The constructor refuses an empty value
      Given a constructor specification with the fields:
        | name | value |
        | App  | ""    |
      When it is constructed
      Then it is rejected by rule LACE-FIELD-05

  Rule: LACE-FIELD-06 Names and values are strict UTF-8

    Scenario Outline: Bytes that are not strict UTF-8 are rejected (<case>)
      Given a Plex with field "<line>"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-06

      Examples:
        | case                       | line                   |
        | a lone 0xFF                | App: \xFF              |
        | an overlong "/"            | App: \xC0\xAF          |
        | a surrogate U+D800         | App: \xED\xA0\x80      |
        | above U+10FFFF             | App: \xF4\x90\x80\x80  |
        | a truncated sequence       | App: \xE2\x82          |
        | a continuation byte first  | App: \x80abc           |
        | in the name                | \xFFApp: x             |

    Scenario: Four-byte UTF-8 is valid text
      Given a Plex with field "Glyph: \u{1F5A7}"
      When it is parsed
      Then its fields are:
        | name  | value |
        | Glyph | 🖧    |

  Rule: LACE-FIELD-07 Names and values are in Unicode Normalization Form C

    Scenario Outline: Text that is not NFC is rejected (<case>)
      Given a Plex with field "<line>"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-07

      Examples:
        | case                                 | line                  |
        | e and a combining acute accent       | Name: note\u{301}     |
        | the singleton ANGSTROM SIGN          | Unit: \u{212B}        |
        | combining marks out of order         | Mark2: a\u{301}\u{323} |
        | a name that is not NFC               | Cafe\u{301}: open     |

    Scenario: Precomposed NFC text is accepted byte for byte
      Given a Plex with field "Name: caf\u{E9}"
      When it is parsed
      Then its fields are:
        | name | value |
        | Name | café  |

    Scenario: Non-NFC line text: the canonical vector with "Name: note" plus U+0301, hashes recomputed (Boundary and rejection examples)
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: chat
        App: archive
        Group: room7
        Name: note\u{301}
        TAI: tomorrow
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-FIELD-07

    Scenario: The constructor refuses a value that is not NFC, it does not normalize it
      Given a constructor specification with the fields:
        | name | value        |
        | Name | note\u{301}  |
      When it is constructed
      Then it is rejected by rule LACE-FIELD-07

  Rule: LACE-FIELD-08 H3 NFC is Normalization Form C under Unicode 17.0.0

    Scenario: U+113C2 U+113C2 composes to U+113C5 since Unicode 16.0, so it is not NFC under 17.0.0
      Given a Plex with field "Tulu: \u{113C2}\u{113C2}"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-07

    Scenario: U+113C5 TULU-TIGALARI VOWEL SIGN AU is NFC under 17.0.0
      Given a Plex with field "Tulu: \u{113C5}"
      When it is parsed
      Then its fields are:
        | name | value     |
        | Tulu | \u{113C5} |

  Rule: LACE-FIELD-09 Lines end with LF only; CR and CRLF are invalid

    Scenario Outline: A CR in a field line is rejected (<case>)
      Given a Plex with field "<line>"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-09

      Examples:
        | case                  | line          |
        | a CRLF line end       | App: chat\r   |
        | a CR inside the value | App: ch\rat   |
        | a CR in the name      | A\rpp: chat   |

    Scenario: CRLF: the canonical vector with a CRLF after "App: chat", hashes recomputed (Boundary and rejection examples)
      Given the Lace record:
        """
        🖧: P.<digest>.H3
        App: chat\r
        App: archive
        Group: room7
        Name: note
        TAI: tomorrow
        🖧: B.<digest>.H3
        Data-Length: 5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-FIELD-09

    Scenario: A glyph line ending with CRLF is rejected
      Given the Lace record:
        """
        🖧: B.<digest>.H3\r
        Data-Length: 2

        hi
        """
      When it is parsed
      Then it is rejected by rule LACE-FIELD-09

    Scenario: A CRLF blank line after Data-Length is rejected
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 2
        \r
        hi
        """
      When it is parsed
      Then it is rejected by rule LACE-FIELD-09

    Scenario: The constructor refuses a value holding CR
      Given a constructor specification with the fields:
        | name | value    |
        | App  | chat\r   |
      When it is constructed
      Then it is rejected by rule LACE-FIELD-09

  Rule: LACE-FIELD-10 Control bytes 0x00..0x1F and 0x7F are forbidden in name and value bytes; the terminating LF is structural

    Scenario Outline: A control byte in a field line is rejected (<case>)
      Given a Plex with field "<line>"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-10

      Examples:
        | case              | line          |
        | NUL in the value  | App: a\x00b   |
        | 0x01 in the value | App: a\x01    |
        | 0x1F in the value | App: \x1Fa    |
        | DEL in the value  | App: a\x7F    |
        | TAB in the value  | App: a\tb     |
        | 0x01 in the name  | A\x01pp: x    |
        | DEL in the name   | App\x7F: x    |

    @reading:LACE-READ-01
    Scenario: 0x20 and 0x7E, just inside the range, are text
      Given a Plex with field "App: \x20~\x20"
      When it is parsed
      Then its fields are:
        | name | value |
        | App  | " ~ " |

    Scenario Outline: The constructor refuses a control byte in a value (<case>)
      Given a constructor specification with the fields:
        | name | value   |
        | App  | <value> |
      When it is constructed
      Then it is rejected by rule LACE-FIELD-10

      Examples:
        | case                | value  |
        | NUL                 | a\x00  |
        | an LF, no line end  | a\x0Ab |
        | DEL                 | a\x7F  |

  Rule: LACE-FIELD-11 One complete "<Name>: <value>" is at most 128 UTF-8 bytes, excluding the LF

    Scenario Outline: A <length>-byte field line is <outcome>
      Given a Plex with field "Note: {<n> × a}"
      And its field line is <length> bytes
      When it is parsed
      Then <result>

      Examples:
        | n   | length | outcome  | result                                 |
        | 122 | 128    | accepted | it is accepted as a plex               |
        | 123 | 129    | rejected | it is rejected by rule LACE-FIELD-11   |
        | 300 | 306    | rejected | it is rejected by rule LACE-FIELD-11   |

    Scenario: A long name counts as much as a long value
      Given a Plex with field "{124 × N}: x"
      And its field line is 127 bytes
      When it is parsed
      Then it is accepted as a plex

    Scenario: The constructor refuses a 129-byte field line
      Given a constructor specification with the fields:
        | name | value       |
        | Note | {123 × a}   |
      When it is constructed
      Then it is rejected by rule LACE-FIELD-11

  Rule: LACE-FIELD-12 Whitespace in a value is data and is never trimmed

    Scenario: Inner and trailing spaces of a value are kept
      Given a Plex with field "Note: a  b\x20\x20"
      When it is parsed
      Then its fields are:
        | name | value    |
        | Note | "a  b  " |

    @reading:LACE-READ-01
    Scenario: A value of one space is a value
      Given a Plex with field "Note: \x20"
      When it is parsed
      Then its fields are:
        | name | value |
        | Note | " "   |

    Scenario: The constructor writes spaces exactly as given
      Given a constructor specification with the fields:
        | name | value  |
        | Note | " x "  |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        Note:  x\x20
        🖧: B.<digest>.H3
        Data-Length: 0


        """

  Rule: LACE-FIELD-13 The structural Data-Length, By and Mark lines satisfy the same line and text rules in addition to their form-specific rules

    Scenario Outline: A structural line that breaks a line rule is rejected by that rule (<case>)
      Given the Lace record:
        """
        <record>
        """
      When it is parsed with mark checking "none"
      Then it is rejected by rule <rule>

      Examples:
        | case                     | rule          | record                                                                                                   |
        | Data-Length with CRLF    | LACE-FIELD-09 | 🖧: B.<digest>.H3\nData-Length: 2\r\n\nhi                                                                |
        | Data-Length:2            | LACE-FIELD-04 | 🖧: B.<digest>.H3\nData-Length:2\n\nhi                                                                   |
        | Data-Length with a NUL   | LACE-FIELD-10 | 🖧: B.<digest>.H3\nData-Length: 2\x00\n\nhi                                                              |
        | By with CRLF             | LACE-FIELD-09 | 🖧: S.<digest>.H3\nBy: <By>\r\nMark: <Mark over the Plex>\n🖧: P.<digest>.H3\nApp: chat\n🖧: B.<digest>.H3\nData-Length: 0\n\n |
        | Mark: followed by a tab  | LACE-FIELD-04 | 🖧: S.<digest>.H3\nBy: <By>\nMark:\t<Mark over the Plex>\n🖧: P.<digest>.H3\nApp: chat\n🖧: B.<digest>.H3\nData-Length: 0\n\n |
        | Mark with a DEL          | LACE-FIELD-10 | 🖧: S.<digest>.H3\nBy: <By>\nMark: <Mark over the Plex>\x7F\n🖧: P.<digest>.H3\nApp: chat\n🖧: B.<digest>.H3\nData-Length: 0\n\n |

  Rule: LACE-FIELD-14 The separator is the single space after the first ": "; further spaces begin the value, so "Name:  x" is valid with value " x" (project decision)

    @reading:LACE-READ-01
    Scenario: "Name:  x" is the field Name with the value " x"
      Given a Plex with field "Name:  x"
      When it is parsed
      Then it is accepted as a plex with the hash its glyph line states
      And its fields are:
        | name | value |
        | Name | " x"  |

    @reading:LACE-READ-01=second-space-rejected
    Scenario: Under reading second-space-rejected, "Name:  x" breaks "exactly one ASCII space follows :"
      Given a Plex with field "Name:  x"
      When it is parsed
      Then it is rejected by rule LACE-FIELD-04

    @reading:LACE-READ-01
    Scenario: The constructor writes the value " x" as "Name:  x"
      Given a constructor specification with the fields:
        | name | value |
        | Name | " x"  |
      When it is constructed
      Then the constructed record is:
        """
        🖧: P.<digest>.H3
        Name:  x
        🖧: B.<digest>.H3
        Data-Length: 0


        """

    Scenario: "Data-Length:  5" has the value " 5", which is no canonical length
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length:  5

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-BLOB-03
