-- The gateway processes alive now, so a gateway that joins or rejoins is counted before it holds
-- any lease and the others hand it a fair share of the collectors (design.md §2). Each process
-- renews its row well before expires_at (by the database clock) and deletes it when it closes; a
-- killed process's row simply expires.
create table gateway_member (
  owner text primary key,
  expires_at timestamptz not null
);
