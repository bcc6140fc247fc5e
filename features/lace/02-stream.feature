@lace
Feature: Record streams concatenate complete records
  A record stream is zero or more complete stored records concatenated in
  order, with no header, separator or trailer. Each record's own structure
  and Blob Data-Length delimit it; the next record starts at the following
  byte.

  Rule: LACE-STREAM-01 A record stream is complete records concatenated with no header, separator or trailer, each delimited by its own structure and Data-Length

    Scenario: Three records back to back are read in order, a repeated record included
      Given the Blob "a" with data "hello"
      And the Plex "p" with the fields:
        """
        App: chat
        """
      And a stream of the records "a", "p" and "a"
      When it is parsed as a stream
      Then it is accepted
      And the stream holds the records "a", "p" and "a"

    Scenario: Data that looks like a record is data: Data-Length delimits the record
      Given the Blob "decoy" with data "🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\nData-Length: 0\n\n"
      And the Blob "b" with data "hi"
      And a stream of the records "decoy" and "b"
      When it is parsed as a stream
      Then the stream holds the records "decoy" and "b"

    Scenario: A Blob with empty data ends right after its blank line
      Given the Blob "empty" with data ""
      And the Blob "b" with data "hi"
      And a stream of the records "empty", "b" and "empty"
      When it is parsed as a stream
      Then the stream holds the records "empty", "b" and "empty"

  Rule: LACE-STREAM-02 A stream reader validates every record of the stream

    Scenario: A reserved field name in the second record rejects the stream
      Given the Blob "a" with data "hello"
      And the Plex "bad" with the fields:
        """
        By: someone
        """
      And a stream of the records "a" and "bad"
      When it is parsed as a stream
      Then it is rejected by rule LACE-PLEX-10

    Scenario: A wrong digest in the last record rejects the stream
      Given the Blob "a" with data "hello"
      And the Lace record "wrong":
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 5

        jello
        """
      And a stream of the records "a", "a" and "wrong"
      When it is parsed as a stream
      Then it is rejected by rule LACE-GLYPH-06

  Rule: LACE-STREAM-03 A reader rejects a stream, and a record, that ends inside a record

    Scenario Outline: A stream cut inside its first record is rejected (<case>)
      Given the text "<bytes>"
      When it is parsed as a stream
      Then it is rejected by rule LACE-STREAM-03

      Examples:
        | case                              | bytes                                                                    |
        | inside the glyph's UTF-8 bytes    | \xF0\x9F                                                                 |
        | after the glyph                   | 🖧                                                                       |
        | inside the hash text              | 🖧: B.kQIYZC1_~Q_ji4                                                     |
        | before the glyph line's LF        | 🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3                     |
        | inside the Data-Length line       | 🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\nData-Len           |
        | before the blank line             | 🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\nData-Length: 5\n   |

    Scenario: A stream whose second record is cut short is rejected
      Given the Blob "a" with data "hello"
      And a stream of the records "a"
      And the text "🖧: P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3\nApp: chat\n" follows the record
      When it is parsed as a stream
      Then it is rejected by rule LACE-STREAM-03

    Scenario: A single record cut after its fields is rejected
      Given the text "🖧: P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3\nApp: chat\nApp: archive\n"
      When it is parsed
      Then it is rejected by rule LACE-STREAM-03

  Rule: LACE-STREAM-04 A reader rejects a stream that continues with bytes that do not form a valid record: here, bytes that begin no record

    Scenario Outline: Bytes after a complete record that begin no record are rejected (<case>)
      Given a Blob with data "hello"
      And the text "<trailing>" follows the record
      When it is parsed as a stream
      Then it is rejected by rule LACE-STREAM-04

      Examples:
        | case                        | trailing             |
        | an LF separator             | \n                   |
        | a trailer                   | END                  |
        | a payload without its glyph | Data-Length: 0\n\n   |
        | the reserved name ⋯🖧       | ⋯🖧: B.x.H3\n        |

  Rule: LACE-STREAM-05 An empty stream is valid and holds no records

    Scenario: An empty stream holds no records
      Given an empty stream
      When it is parsed as a stream
      Then it is accepted
      And the stream holds no records

  @should
  Rule: LACE-STREAM-06 By convention a file holding a record stream ends its name with .lrs; a .lr file is a one-record stream

    Scenario: A .lrs file of two records parses as a stream of two; the name is never what makes it valid
      Given the Blob "a" with data "hello"
      And the Blob "b" with data "world"
      And a file named "greetings.lrs" holding the records "a" and "b"
      When it is parsed as a stream
      Then the stream holds the records "a" and "b"

    Scenario: A .lr file parsed as a stream holds exactly one record
      Given the Blob "a" with data "hello"
      And a file named "hello.lr" holding the records "a"
      When it is parsed as a stream
      Then the stream holds the records "a"
