-- The family's client fields (contract §10.7, issue 40): the 应用管理 screens of both family
-- consoles show and save them. Meterline's own sign-in reads none of them: they are kept for the
-- applications that register here and for the family's consoles, which expect them on every client.
alter table sys_client add column web_server_redirect_uri varchar(255);
alter table sys_client add column resource_ids varchar(255);
alter table sys_client add column authorities varchar(255);
alter table sys_client add column autoapprove varchar(255);
alter table sys_client add column additional_information varchar(4096);
