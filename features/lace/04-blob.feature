@lace
Feature: Blob records carry opaque bytes
  A Blob gives arbitrary bytes hash identity: its canonical payload is the
  Data-Length line, one blank LF line and exactly <len> data bytes.

  Rule: LACE-BLOB-01 The Blob canonical payload begins with the Data-Length line

    Scenario Outline: A Blob payload that begins with another line is rejected (<case>)
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        <first line>

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-BLOB-01

      Examples:
        | case                  | first line      |
        | another name          | Length: 5       |
        | the name in lowercase | data-length: 5  |
        | an application field  | App: chat       |

  Rule: LACE-BLOB-02 The Data-Length line is followed by exactly one blank LF line before the data

    Scenario: Data right after the Data-Length line is rejected
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 5
        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-BLOB-02

    Scenario: A second blank line is the first data byte
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 6


        hello
        """
      When it is parsed
      Then it is accepted as a blob with the hash its glyph line states
      And its data is 6 bytes

  Rule: LACE-BLOB-03 Data-Length uses ASCII decimal digits [0-9] with no leading zero except 0

    Scenario Outline: A Data-Length that is not canonical decimal is rejected (<case>)
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: <length>

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-BLOB-03

      Examples:
        | case                  | length     |
        | a leading zero        | 05         |
        | two zeros             | 00         |
        | a plus sign           | +5         |
        | a minus sign          | -5         |
        | a decimal point       | 5.0        |
        | hexadecimal           | 0x5        |
        | a trailing space      | 5\x20      |
        | an Arabic-Indic five  | \u{665}    |
        | a letter              | five       |

    Scenario: Data-Length: 01 (Boundary and rejection examples)
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 01

        h
        """
      When it is parsed
      Then it is rejected by rule LACE-BLOB-03

    Scenario: Data-Length: 0 is the one length that starts with 0
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed
      Then it is accepted as a blob
      And its data is 0 bytes

  Rule: LACE-BLOB-04 Readers consume exactly <len> data bytes; fewer bytes present is invalid

    Scenario: Fewer data bytes than Data-Length states are rejected
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 6

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-BLOB-04

    Scenario: A Blob declaring 1000 bytes with 10 present is rejected
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 1000

        0123456789
        """
      When it is parsed
      Then it is rejected by rule LACE-BLOB-04

    Scenario: A byte after the stated length is no data: it trails the record
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 4

        hell
        """
      And the text "o" follows the record
      When it is parsed
      Then it is rejected by rule LACE-GLYPH-08

    Scenario: In a stream, a byte after the stated length must begin the next record
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 4

        hell
        """
      And the text "o" follows the record
      When it is parsed as a stream
      Then it is rejected by rule LACE-STREAM-04

  Rule: LACE-BLOB-05 Blob data does not exceed 32 MiB (33,554,432 bytes)

    Scenario: A Blob of exactly 32 MiB is accepted
      Given a Blob with data "{33554432 × a}"
      When it is parsed
      Then it is accepted as a blob with the hash its glyph line states

    Scenario: A Blob over 32 MiB: 33,554,433 data bytes, all present (Boundary and rejection examples)
      Given a Blob with data "{33554433 × a}"
      When it is parsed
      Then it is rejected by rule LACE-BLOB-05

    Scenario: A Data-Length beyond any limit is rejected for its size, whatever bytes follow
      Given the Lace record:
        """
        🖧: B.<digest>.H3
        Data-Length: 99999999999999999999999

        hello
        """
      When it is parsed
      Then it is rejected by rule LACE-BLOB-05

    Scenario: The constructor refuses data over 32 MiB
      Given a constructor specification with data "{33554433 × a}"
      When it is constructed
      Then it is rejected by rule LACE-BLOB-05

  Rule: LACE-BLOB-06 Blob data is opaque and may contain any bytes, including bytes that resemble field lines, record glyphs or ILTP items

    Scenario Outline: Data holding <what> is accepted as data
      Given a Blob with data "<data>"
      When it is parsed
      Then it is accepted as a blob with the hash its glyph line states
      And its data is <n> bytes

      Examples:
        | what                         | data                                                                | n  |
        | a field line                 | App: chat\n                                                         | 10 |
        | a record glyph line and Blob | 🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\nData-Length: 0\n\n | 71 |
        | CR, NUL, DEL and non-UTF-8   | \r\n\x00\x7F\xFF\xFE                                                | 6  |
        | a reserved field name        | ⋯🖧: x\nBy: y\n                                                     | 17 |
        | binary item framing          | \x00\x00\x00\x05\x01hello                                           | 10 |

    Scenario: A Plex's data may look like more fields
      Given a Plex with data "Zed: not a field\n" and field "App: chat"
      When it is parsed
      Then its fields are:
        | name | value |
        | App  | chat  |
      And its data is 17 bytes

  Rule: LACE-BLOB-07 Empty Blob data is valid, also in the Blob embedded in a Plex or Seal

    Scenario: A bare Blob with empty data
      Given a Blob with data ""
      When it is parsed
      Then it is accepted as a blob with the hash its glyph line states
      And its data is 0 bytes

    Scenario: A Plex whose embedded Blob has empty data
      Given a Plex with field "App: chat"
      When it is parsed
      Then it is accepted as a plex
      And its data is 0 bytes

    Scenario: A Seal whose embedded Blob has empty data
      Given the Lace record:
        """
        🖧: S.<digest>.H3
        By: <By>
        Mark: <Mark over the Plex>
        🖧: P.<digest>.H3
        App: chat
        🖧: B.<digest>.H3
        Data-Length: 0


        """
      When it is parsed with mark checking "none"
      Then it is accepted as a seal with the hash its glyph line states
      And its data is 0 bytes
