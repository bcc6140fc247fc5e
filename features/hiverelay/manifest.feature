@hiverelay
Feature: HiveRelay BCC v1, section 5: the strict vector-manifest framing
  A vector manifest is a u32be entry count, then rows sorted by raw UTF-8 path
  bytes: path length u16be, canonical relative path bytes, vector length u64be
  and the BLAKE2b-256 of the complete vector bytes. Duplicate, absolute,
  dot-component, backslash, non-canonical UTF-8, unsorted, truncated or
  trailing-byte manifests fail closed. "A vector manifest of the paths ..."
  has one row per path, in the order given, describing a vector whose bytes
  are the path's own bytes.

  Rule: HR-MAN-01 A vector manifest is a u32be count, then rows of u16be path length, path, u64be vector length and BLAKE2b-256

    Scenario: a manifest of one row, byte by byte
      Given the concatenation of:
        | field              | bytes                                                                                   |
        | count              | 00 00 00 01                                                                             |
        | rows[0].pathLength | 00 05                                                                                   |
        | rows[0].path       | "a.bin"                                                                                 |
        | rows[0].length     | 00 00 00 00 00 00 00 03                                                                 |
        | rows[0].hash       | bd dd 81 3c 63 42 39 72 31 71 ef 3f ee 98 57 9b 94 96 4e 3b b1 cb 3e 42 72 62 c8 c0 68 d5 23 19 |
      When the manifest is parsed
      Then the manifest has 1 entries
      And entry 0 of the manifest is "a.bin", 3 bytes, BLAKE2b-256 bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319

    Scenario: the manifest of no vectors is its count alone
      Given the input bytes "00 00 00 00"
      When the manifest is parsed
      Then the manifest has 0 entries

    Scenario: the authority's vector manifest
      Given the reference vector manifest
      When the manifest is parsed
      Then the manifest has 18 entries
      And entry 0 of the manifest is "negative/blind-core-read-cap-zero-core-public-key.bin", 384 bytes
      And entry 17 of the manifest is "registry/client-composition-schema-catalog-v1.cenc", 1469 bytes
      And the input is 1506 bytes long
      And the input equals the published file "hiverelay-blind-client-composition-vector-manifest-v1.bin"

    Scenario: the steps' framing of the vector set is the manifest the testee frames
      Given the reference vector set
      And the vector manifest is left out
      When the vector set is verified
      Then the vector manifest it used is the one the steps frame from the files
      And the vector set hash is "fd0639c088f1c420a7768940bd1e82b85e4831d2a0508a468e611be1ad9e54ca"

    Scenario: a path of 65535 bytes can be framed (the set then fails: the path is not in the inventory)
      Given the reference vector set
      And a file whose path is 65535 times "a", holding 00, is added to the vector set
      And the vector manifest is left out
      When the vector set is verified
      Then it is rejected by rule HR-VEC-03

    Scenario: a path of 65536 bytes cannot be framed: its length does not fit a u16be
      Given the reference vector set
      And a file whose path is 65536 times "a", holding 00, is added to the vector set
      And the vector manifest is left out
      When the vector set is verified
      Then it is rejected by rule HR-MAN-01

  Rule: HR-MAN-02 Manifest rows are sorted by raw UTF-8 path bytes; a row that sorts before its predecessor fails closed

    Scenario Outline: the paths <paths> are sorted
      Given a vector manifest of the paths <paths>
      When the manifest is parsed
      Then the manifest has <n> entries

      Examples:
        | paths                         | n |
        | "a", "ab" and "b"             | 3 |
        | "B", "Z" and "a"              | 3 |
        | "a/b", "a0" and "a~"          | 3 |
        | "z", "\u00e9" and "\u4e00"    | 3 |

    Scenario Outline: the paths <paths> are not sorted
      Given a vector manifest of the paths <paths>
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-02

      Examples:
        | paths                       |
        | "b" and "a"                 |
        | "b" and "B"                 |
        | "ab" and "a"                |
        | "a0" and "a/b"              |
        | "\u00e9" and "z"            |
        | "a", "c" and "b"            |

  Rule: HR-MAN-03 A manifest with two rows of the same path fails closed

    Scenario Outline: the paths <paths>
      Given a vector manifest of the paths <paths>
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-03

      Examples:
        | paths                                   |
        | "a" and "a"                             |
        | "positive/x.bin", "positive/x.bin" and "positive/y.bin" |

    Scenario: two rows of one path with different vectors
      Given a vector manifest of the paths "a.bin" and "a.bin"
      And its rows[1].length is 1
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-03

  Rule: HR-MAN-04 A manifest path that is absolute fails closed

    Scenario Outline: the path "<path>"
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-04

      Examples:
        | path             |
        | /a               |
        | /                |
        | /positive/a.bin  |

  Rule: HR-MAN-05 A manifest path with a dot component fails closed

    Scenario Outline: the path "<path>"
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-05

      Examples:
        | path         |
        | .            |
        | ..           |
        | ./a          |
        | ../a         |
        | a/./b        |
        | a/../b       |
        | a/..         |

    @reading:HR-READ-10
    Scenario Outline: the path "<path>" has dots but no dot component
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then the manifest has 1 entries

      Examples:
        | path      |
        | .hidden   |
        | a..b      |
        | ...       |
        | a/b.bin   |

    @reading:HR-READ-10=leading-dot-components
    Scenario Outline: under reading leading-dot-components, the path "<path>" has a dot component
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-05

      Examples:
        | path      |
        | .hidden   |
        | a/.b      |
        | ...       |

    Scenario: a dot inside a component is no dot component whatever reading HR-READ-10 takes
      Given a vector manifest of the paths "a..b"
      When the manifest is parsed
      Then the manifest has 1 entries

  Rule: HR-MAN-06 A manifest path containing a backslash fails closed

    Scenario Outline: the path "<path>"
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-06

      Examples:
        | path                  |
        | a\x5cb                |
        | positive\x5ca.bin     |
        | \x5c                  |

  Rule: HR-MAN-07 A manifest path that is not strict UTF-8 fails closed

    Scenario Outline: a path with <what>
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-07

      Examples:
        | what                        | path             |
        | an overlong slash           | a\xc0\xafb       |
        | an overlong NUL             | a\xc0\x80        |
        | a UTF-16 surrogate          | \xed\xa0\x80.bin |
        | a code point above U+10FFFF | \xf4\x90\x80\x80 |
        | a stray continuation byte   | a\x80            |
        | a sequence cut short        | a\xc3            |
        | Latin-1 instead of UTF-8    | caf\xe9.bin      |

    Scenario: a path in strict UTF-8
      Given a vector manifest of the paths "caf\u00e9/\u4e00\U0001f5a7.bin"
      When the manifest is parsed
      Then entry 0 of the manifest is "caf\u00e9/\u4e00\U0001f5a7.bin", 17 bytes

  Rule: HR-MAN-08 Under reading HR-READ-07's alternative nfc-required, a manifest path not in NFC (Unicode 17.0.0) fails closed

    @reading:HR-READ-07
    Scenario Outline: a path with <what>, not in NFC, is strict UTF-8 and accepted
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then the manifest has 1 entries

      Examples:
        | what                                | path              |
        | e and a combining acute accent      | caf\u0065\u0301   |
        | the Angstrom sign (a singleton)     | \u212b.bin        |

    @reading:HR-READ-07=nfc-required
    Scenario Outline: under reading nfc-required, a path with <what>, not in NFC, fails closed
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-08

      Examples:
        | what                                | path              |
        | e and a combining acute accent      | caf\u0065\u0301   |
        | A and a combining ring above        | \u0041\u030a.bin  |
        | a Hangul syllable as its jamo       | \u1100\u1161.bin  |
        | the Angstrom sign (a singleton)     | \u212b.bin        |

    Scenario: the same name in NFC is accepted whatever reading HR-READ-07 takes
      Given a vector manifest of the paths "caf\u00e9"
      When the manifest is parsed
      Then the manifest has 1 entries

  Rule: HR-MAN-09 An empty manifest path, or one with an empty component, fails closed (reading HR-READ-08)

    @reading:HR-READ-08
    Scenario Outline: the path "<path>"
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-09

      Examples:
        | path  |
        |       |
        | a//b  |
        | a/    |

    @reading:HR-READ-08=empty-components-allowed
    Scenario Outline: under reading empty-components-allowed, the path "<path>" is accepted
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then the manifest has 1 entries

      Examples:
        | path  |
        |       |
        | a//b  |
        | a/    |

  Rule: HR-MAN-10 Under reading HR-READ-09's alternative controls-rejected, a manifest path containing a C0 control or DEL fails closed

    @reading:HR-READ-09
    Scenario Outline: a path with <what> is accepted: section 5 does not list control bytes
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then the manifest has 1 entries

      Examples:
        | what  | path   |
        | NUL   | a\x00b |
        | tab   | a\tb   |
        | DEL   | a\x7f  |

    @reading:HR-READ-09=controls-rejected
    Scenario Outline: under reading controls-rejected, a path with <what> fails closed
      Given a vector manifest of the paths "<path>"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-10

      Examples:
        | what  | path   |
        | NUL   | a\x00b |
        | LF    | a\nb   |
        | tab   | a\tb   |
        | US    | a\x1f  |
        | DEL   | a\x7f  |

  Rule: HR-MAN-11 A truncated manifest fails closed

    Scenario Outline: the manifest bytes "<bytes>"
      Given the input bytes "<bytes>"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-11

      Examples:
        | bytes             |
        |                   |
        | 00                |
        | 00 00 00          |
        | 00 00 00 01       |
        | 00 00 00 01 00 05 |

    Scenario: a count of 2 with one row
      Given a vector manifest of the paths "a.bin"
      And the count of its rows is written as "00 00 00 02"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-11

    Scenario: a count of 2^32-1 with one row
      Given a vector manifest of the paths "a.bin"
      And the count of its rows is written as "ff ff ff ff"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-11

    Scenario: a row cut in its hash
      Given a vector manifest of the paths "a.bin"
      And the last byte of the input is removed
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-11

    Scenario: a path length beyond the input
      Given a vector manifest of the paths "a.bin"
      And its rows[0].pathLength is 0xffff
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-11

    Scenario: the authority's manifest without its last row's last byte
      Given the reference vector manifest
      And the last byte of the input is removed
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-11

  Rule: HR-MAN-12 Bytes after the last manifest row fail closed

    Scenario: a byte after the last row
      Given a vector manifest of the paths "a.bin"
      And 00 is appended to the input
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-12

    Scenario: a second row the count does not cover
      Given a vector manifest of the paths "a.bin" and "b.bin"
      And the count of its rows is written as "00 00 00 01"
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-12

    Scenario: the authority's manifest followed by a byte
      Given the reference vector manifest
      And ff is appended to the input
      When the manifest is parsed
      Then it is rejected by rule HR-MAN-12

  Rule: HR-MAN-13 Each row holds the exact length and BLAKE2b-256 of the complete bytes of the vector at its path

    Scenario: every row of the authority's manifest describes its committed vector
      Given the reference vector manifest
      When the manifest is parsed
      Then every entry of the manifest holds the length and BLAKE2b-256 of its vector file

    Scenario: a row's hash is BLAKE2b-256 of the vector bytes (here the empty vector)
      Given a vector manifest of the paths "a.bin"
      And its rows[0].length is 0
      And its rows[0].hash is 0e 57 51 c0 26 e5 43 b2 e8 ab 2e b0 60 99 da a1 d1 e5 df 47 77 8f 77 87 fa ab 45 cd f1 2f e3 a8
      When the manifest is parsed
      Then entry 0 of the manifest is "a.bin", 0 bytes, BLAKE2b-256 0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8

    Scenario: a vector whose bytes differ from its row fails authority verification
      Given the reference vector set
      And the file "positive/write-cell-cap-v1.bin" of the vector set holds the vector "positive/read-cell-cap-v1.bin"
      When the vector set is verified
      Then it is rejected by rule HR-VEC-04
