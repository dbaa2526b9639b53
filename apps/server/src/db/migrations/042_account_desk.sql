-- The front desk's opening and closing of an account.
-- Opening: how the deposit was paid (PAYMENT_METHOD, as a counter recharge), for its receipt.
-- Closing: the final reading the account was settled to (register hundredths, as register_total)
-- and when it was read; what became of supply: close_supply 1 cut (close_supply_batch the relay or
-- valve command, settled by the gateway's read-back), 2 kept on by the operator (close_supply_reason
-- says why), 0 nothing to switch (a local-prepaid meter, or none could be queued: the reason says why).
alter table pms_account add column deposit_method integer;
alter table pms_account add column close_reading bigint;
alter table pms_account add column close_read_time timestamptz;
alter table pms_account add column close_supply integer check (close_supply in (0, 1, 2));
alter table pms_account add column close_supply_reason varchar(255);
alter table pms_account add column close_supply_batch bigint;
