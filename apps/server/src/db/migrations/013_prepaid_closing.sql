-- Closing a local-prepaid account first clears the meter (the codec's account-clearing write); the
-- closing refund is booked only when the meter confirms it or a read-back of its purchase count
-- proves it. Until then, or when the meter refuses, the account stays open and the close record
-- (datacloseaccount) shows where it stands:
--   close_state 0 clearing sent to the meter, 1 cleared and closed, 2 refused or unreachable;
--   close_outcome what the meter said; close_command_id the clearing write (pms_meter_command).
alter table pms_account add column close_state integer check (close_state in (0, 1, 2));
alter table pms_account add column close_outcome varchar(255);
alter table pms_account add column close_command_id bigint;
alter table pms_account add column close_requested_time timestamptz;
