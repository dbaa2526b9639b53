-- The unsettled-command alarm rule looks, for every meter in each pass, for its oldest command that
-- timed out ("to be confirmed") and was never settled: a partial index keeps that a lookup of the
-- few such rows rather than a walk over the meter's whole command history.
create index pms_meter_command_unsettled on pms_meter_command (tenant_id, meter_id, done_time)
  where state = 'timeout';
