-- Attachments are found by their object name when a link is followed: one row per name, and the
-- link of a file stays what it was when the enabled storage changes (each row keeps its oss_id).
-- Files uploaded before attachments existed stay in res_file and are still served from there.
create unique index if not exists blade_attach_name_unique on blade_attach (name);
