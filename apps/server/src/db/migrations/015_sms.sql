-- Every message handed to an SMS provider, with what the provider answered (MSG_RESULT: 0 fail,
-- 1 success, 2 timeout to be confirmed). A failed or unconfirmed send keeps its error here so that
-- it can be retried and shown; sms_id names the configuration (blade_sms) it went through.
create table sms_send_log (
  id bigint primary key,
  tenant_id varchar(12) not null,
  sms_id bigint not null,
  category integer not null,
  template_id varchar(64) not null,
  phones varchar(2000) not null,
  params text not null,
  result integer not null check (result in (0, 1, 2)),
  retryable integer not null default 0 check (retryable in (0, 1)),
  error varchar(500),
  provider_code varchar(100),
  provider_answer text,
  attempts integer not null default 1,
  create_user bigint,
  create_time timestamptz not null default now()
);

create index sms_send_log_tenant_time on sms_send_log (tenant_id, create_time desc);
