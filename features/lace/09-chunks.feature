@lace
Feature: Chunk sequences describe complete file bytes
  A chunk node is an H3 Plex with empty data, exactly one "Kind: chunks",
  one or more Chunk+Link occurrences and no other application fields. Each
  link's data is a half-open byte range "start..end" and its target a
  canonical H3 Blob or another chunk node. A file may instead be a bare
  Blob.

  lace.chunks is given a record stream whose first record is the root; the
  steps put the named root first and every other record of the scenario
  after it. "B.<a>.H3" is the hash text of the record named a.

  Rule: LACE-CHUNK-01 A chunk node is an H3 Plex

    Scenario: A chunk node over two Blobs assembles their bytes
      Given the Blob "a" with data "abc"
      And the Blob "b" with data "de"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..5 B.<b>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then the assembled file is "abcde"

    Scenario: A Seal over a chunk node is no chunk node
      Given the Blob "a" with data "abc"
      And the Plex "node" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the Seal "root" over the Plex "node", signed with the stand-in key
      When the chunks of "root" are assembled with mark checking "none"
      Then it is rejected by rule LACE-CHUNK-01

  Rule: LACE-CHUNK-02 A chunk node's Blob data is empty

    Scenario: A chunk node with data is rejected
      Given the Blob "a" with data "abc"
      And the Plex "root" with data "x" and the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-02

  Rule: LACE-CHUNK-03 A chunk node has exactly one "Kind: chunks" field

    Scenario Outline: A node without exactly one Kind: chunks is rejected (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        <fields>
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-03

      Examples:
        | case              | fields                                                   |
        | no Kind           | Chunk+Link: 0..3 B.<a>.H3                                |
        | Kind: chunk       | Chunk+Link: 0..3 B.<a>.H3\nKind: chunk                   |
        | Kind: Chunks      | Chunk+Link: 0..3 B.<a>.H3\nKind: Chunks                  |
        | Kind: directory   | Chunk+Link: 0..3 B.<a>.H3\nKind: directory               |
        | two Kind: chunks  | Chunk+Link: 0..3 B.<a>.H3\nKind: chunks\nKind: chunks    |

  Rule: LACE-CHUNK-04 A chunk node has one or more Chunk+Link occurrences

    Scenario: A node of Kind: chunks alone is rejected
      Given the Plex "root" with the fields:
        """
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-04

  Rule: LACE-CHUNK-05 A chunk node has no application fields other than Kind and Chunk+Link

    Scenario Outline: Another field in a chunk node is rejected (<field>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        <before>Chunk+Link: 0..3 B.<a>.H3
        <between>Kind: chunks<after>
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-05

      Examples:
        | field          | before              | between                  | after              |
        | Name           |                     |                          | \nName: movie.mp4  |
        | a +Link        | +Link: a B.<a>.H3\n |                          |                    |
        | a File+Link    |                     | File+Link: a B.<a>.H3\n  |                    |

  Rule: LACE-CHUNK-06 Each Chunk+Link targets a canonical H3 Blob or another chunk-node Plex

    Scenario Outline: A target that is not canonical H3 hash text is rejected (<case>)
      Given the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 <target>
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-06

      Examples:
        | case                | target                                            |
        | not B64A            | B.abc.H3                                          |
        | 42 characters       | B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq.H3   |

    @reading:LACE-READ-05
    Scenario: A target with nonzero pad bits names no record, not even the one it decodes to
      # B.kQIYZC1_…zq9.H3 is the hash of the Blob "h" (…zq8) with one pad bit set.
      Given the Blob "h" with data "hello"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..5 B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq9.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-06

    @reading:LACE-READ-05=pad-bits-ignored
    Scenario: Under reading pad-bits-ignored, a target with nonzero pad bits names the Blob it decodes to
      # B.kQIYZC1_…zq9.H3 is the hash of the Blob "h" (…zq8) with one pad bit set.
      Given the Blob "h" with data "hello"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..5 B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq9.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then the assembled file is "hello"

    Scenario: A chunk node may link a chunk node
      Given the Blob "a" with data "abc"
      And the Plex "inner" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 P.<inner>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then the assembled file is "abc"

  Rule: LACE-CHUNK-07 A Chunk+Link targeting a Seal is invalid

    Scenario: A link to a Seal is rejected, though the Seal is present and valid
      Given the Blob "a" with data "abc"
      And the Plex "node" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the Seal "sealed" over the Plex "node", signed with the stand-in key
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 S.<sealed>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled with mark checking "none"
      Then it is rejected by rule LACE-CHUNK-07

  Rule: LACE-CHUNK-08 A Chunk+Link whose target uses an unsupported (non-H3) hash format is invalid, not missing

    Scenario Outline: A target with the suffix <suffix> is invalid
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.<suffix>
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-08

      Examples:
        | suffix |
        | H4     |
        | h3     |
        | H33    |

  Rule: LACE-CHUNK-09 A Chunk+Link targeting a Plex of another shape is invalid, reported under the chunk-node rule it breaks

    Scenario Outline: A child Plex that is no chunk node is rejected (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "child" with data "<data>" and the fields:
        """
        <fields>
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 P.<child>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule <rule>

      Examples:
        | case                          | data | fields                                      | rule            |
        | an application Plex           |      | App: chat                                   | LACE-CHUNK-03   |
        | a directory                   |      | File+Link: x B.<a>.H3\nKind: directory       | LACE-CHUNK-03   |
        | a chunk node with data        | abc  | Chunk+Link: 0..3 B.<a>.H3\nKind: chunks      | LACE-CHUNK-02   |
        | a chunk node with a Name      |      | Chunk+Link: 0..3 B.<a>.H3\nKind: chunks\nName: x | LACE-CHUNK-05 |

  Rule: LACE-CHUNK-10 A file may instead be a bare Blob

    Scenario: A bare Blob is the file of its data
      Given the Blob "root" with data "hello"
      When the chunks of "root" are assembled
      Then the assembled file is "hello"

  Rule: LACE-CHUNK-11 An empty file is an empty Blob

    Scenario: The empty Blob is the empty file
      Given the Blob "root" with data ""
      When the chunks of "root" are assembled
      Then the assembled file is empty

  Rule: LACE-CHUNK-12 Chunk+Link data is exactly start..end

    Scenario Outline: Link data that is not start..end is rejected (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: <range> B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-12

      Examples:
        | case               | range     |
        | a dash             | 0-3       |
        | no separator       | 03        |
        | an ellipsis        | 0\u{2026}3 |
        | two separators     | 0..3..3   |
        | a name             | part1     |

  Rule: LACE-CHUNK-13 Both endpoints are canonical unsigned decimal integers with no sign, whitespace or leading zero except 0

    Scenario Outline: A range endpoint that is not canonical decimal is rejected (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: <range> B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-13

      Examples:
        | case                    | range    |
        | a leading zero          | 00..3    |
        | a leading zero at end   | 0..03    |
        | a plus sign             | +0..3    |
        | a minus sign            | 0..-3    |
        | an empty start          | ..3      |
        | an empty end            | 0..      |
        | a space before the end  | 0.. 3    |
        | a trailing space        | 0..3\x20 |
        | hexadecimal             | 0..0x3   |

  Rule: LACE-CHUNK-14 Both endpoints are in 0..=u64::MAX; a larger value is arithmetic overflow and invalid

    Scenario: An end of 2^64 overflows
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..18446744073709551616 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-14

    Scenario: An end of 2^64 + 3 overflows, though modulo 2^64 it is the child's length
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..18446744073709551619 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-14

    Scenario: u64::MAX is an endpoint: that range is merely longer than its child
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..18446744073709551615 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-18

  Rule: LACE-CHUNK-15 Convention readers require positive half-open ranges (start < end)

    Scenario: An empty range over the empty Blob is rejected
      Given the Blob "empty" with data ""
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..0 B.<empty>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-15

    Scenario: A backwards range is rejected
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 6..3 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-15

  Rule: LACE-CHUNK-16 The first range of a chunk node starts at zero

    Scenario: A first range from 1 is rejected
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 1..4 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-16

  Rule: LACE-CHUNK-17 Ranges are contiguous in occurrence order: each start equals the previous end

    Scenario Outline: Ranges that are not contiguous are rejected (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: <second> B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-17

      Examples:
        | case       | second |
        | a gap      | 4..7   |
        | an overlap | 2..5   |
        | a restart  | 0..3   |

  Rule: LACE-CHUNK-18 Each range length equals its child's complete logical length; the range relocates the whole child, never a slice

    Scenario Outline: A range of another length than its child is rejected (<case>)
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: <range> B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-18

      Examples:
        | case          | range |
        | one too long  | 0..4  |
        | one too short | 0..2  |

    Scenario: A chunk-node child counts its described bytes, not its own empty data
      Given the Blob "a" with data "abc"
      And the Plex "inner" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..1 P.<inner>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-18

    Scenario: A child node's own ranges start at zero wherever the parent places it
      Given the Blob "a" with data "abc"
      And the Blob "b" with data "de"
      And the Plex "inner" with the fields:
        """
        Chunk+Link: 0..2 B.<b>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..5 P.<inner>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then the assembled file is "abcde"

  Rule: LACE-CHUNK-19 The final end is the node's positive logical length, not its structural Data-Length

    Scenario: A two-level tree of eight bytes
      Given the Blob "a" with data "abc"
      And the Blob "hello" with data "hello"
      And the Plex "remaining" with the fields:
        """
        Chunk+Link: 0..5 B.<hello>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..8 P.<remaining>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then the assembled file is "abchello"

  Rule: LACE-CHUNK-20 Every child exists and validates before the file is available; a missing child is invalid

    Scenario: A missing child is rejected
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the record "a" is left out of the stream
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-20

    Scenario: A missing grandchild is rejected
      Given the Blob "a" with data "abc"
      And the Plex "inner" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 P.<inner>.H3
        Kind: chunks
        """
      And the record "a" is left out of the stream
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-20

    Scenario: An empty stream holds no root
      When the chunks of an empty stream are assembled
      Then it is rejected by rule LACE-CHUNK-20

    Scenario: A child that is present but invalid fails the whole stream
      Given the Lace record "a":
        """
        🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3
        Data-Length: 3

        abc
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-GLYPH-06

  Rule: LACE-CHUNK-21 Missing children, invalid shapes or ranges, or overflow never produce a partial file

    Scenario: Valid first chunks and a missing last one give no file at all
      Given the Blob "a" with data "abc"
      And the Blob "b" with data "de"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..6 B.<a>.H3
        Chunk+Link: 6..8 B.<b>.H3
        Kind: chunks
        """
      And the record "b" is left out of the stream
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-20

    Scenario: Valid first chunks and an overflowing last range give no file at all
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..99999999999999999999 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-CHUNK-14

  Rule: LACE-CHUNK-22 Repeated child references at separate ranges are valid sharing

    Scenario: One Blob twice
      Given the Blob "a" with data "abc"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..3 B.<a>.H3
        Chunk+Link: 3..6 B.<a>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then the assembled file is "abcabc"

    Scenario: One chunk node twice
      Given the Blob "a" with data "ab"
      And the Plex "pair" with the fields:
        """
        Chunk+Link: 0..2 B.<a>.H3
        Chunk+Link: 2..4 B.<a>.H3
        Kind: chunks
        """
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..4 P.<pair>.H3
        Chunk+Link: 4..8 P.<pair>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then the assembled file is "abababab"

  Rule: LACE-CHUNK-23 One Kind field leaves at most 511 Chunk+Link occurrences per node; larger files use more levels without changing the 32 MiB per-Blob limit

    Scenario: A node of 511 links
      Given the Blob "x" with data "x"
      And the chunk node "root" linking "x" 511 times
      When the chunks of "root" are assembled
      Then the assembled file is "{511 × x}"

    Scenario: A node of 512 links has 513 fields and is no valid Plex
      Given the Blob "x" with data "x"
      And the chunk node "root" linking "x" 512 times
      When the chunks of "root" are assembled
      Then it is rejected by rule LACE-PLEX-03

    Scenario: A second level describes more than 511 links' worth
      Given the Blob "x" with data "x"
      And the chunk node "full" linking "x" 511 times
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..511 P.<full>.H3
        Chunk+Link: 511..1022 P.<full>.H3
        Chunk+Link: 1022..1023 B.<x>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then the assembled file is "{1023 × x}"

    Scenario: A file larger than 32 MiB is chunked from Blobs within the limit
      Given the Blob "big" with data "{33554432 × z}"
      And the Blob "one" with data "!"
      And the Plex "root" with the fields:
        """
        Chunk+Link: 0..33554432 B.<big>.H3
        Chunk+Link: 33554432..33554433 B.<one>.H3
        Kind: chunks
        """
      When the chunks of "root" are assembled
      Then the assembled file is "{33554432 × z}!"

  Rule: LACE-CHUNK-24 Chunking is hash-significant: different chunk trees of equal assembled bytes are different records

    Scenario: Two trees of "abcdef" are two records
      Given the Blob "abc" with data "abc"
      And the Blob "def" with data "def"
      And the Blob "abcdef" with data "abcdef"
      And the Plex "split" with the fields:
        """
        Chunk+Link: 0..3 B.<abc>.H3
        Chunk+Link: 3..6 B.<def>.H3
        Kind: chunks
        """
      And the Plex "whole" with the fields:
        """
        Chunk+Link: 0..6 B.<abcdef>.H3
        Kind: chunks
        """
      When the chunks of "split" are assembled
      Then the assembled file is "abcdef"
      When the chunks of "whole" are assembled
      Then the assembled file is "abcdef"
      Given a stream of the records "split" and "whole"
      When it is parsed as a stream
      Then the stream holds the records "split" and "whole"
