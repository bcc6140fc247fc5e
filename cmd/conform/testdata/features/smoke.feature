Feature: conform features passes godog's flags through

  # Scenarios for the tests of `conform features` only: the real rules are
  # in features/. Neither sends a request, so the first fails and the second
  # is skipped against a testee that does not claim lace-009.

  @fails
  Scenario: a Then step without a request fails
    Then it is accepted

  @needs-lace-009
  Scenario: a scenario needing an unclaimed profile is skipped
    Then it is accepted
