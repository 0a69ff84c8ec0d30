// Package clients2 holds AWS clients.
package clients2

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	amp "github.com/aws/aws-sdk-go-v2/service/amp"
	bedrockagentcorecontrol "github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	codeartifact "github.com/aws/aws-sdk-go-v2/service/codeartifact"
	ec2 "github.com/aws/aws-sdk-go-v2/service/ec2"
	elasticache "github.com/aws/aws-sdk-go-v2/service/elasticache"
	glue "github.com/aws/aws-sdk-go-v2/service/glue"
	kinesis "github.com/aws/aws-sdk-go-v2/service/kinesis"
	organizations "github.com/aws/aws-sdk-go-v2/service/organizations"
	rolesanywhere "github.com/aws/aws-sdk-go-v2/service/rolesanywhere"
	secretsmanager "github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	sqs "github.com/aws/aws-sdk-go-v2/service/sqs"
)

// Clients are the service clients.
type Clients struct {
	Amp                     *amp.Client
	Bedrockagentcorecontrol *bedrockagentcorecontrol.Client
	Codeartifact            *codeartifact.Client
	Ec2                     *ec2.Client
	Elasticache             *elasticache.Client
	Glue                    *glue.Client
	Kinesis                 *kinesis.Client
	Organizations           *organizations.Client
	Rolesanywhere           *rolesanywhere.Client
	Secretsmanager          *secretsmanager.Client
	Sqs                     *sqs.Client
}

// New makes every client.
func New(cfg aws.Config) *Clients {
	return &Clients{
		Amp:                     amp.NewFromConfig(cfg),
		Bedrockagentcorecontrol: bedrockagentcorecontrol.NewFromConfig(cfg),
		Codeartifact:            codeartifact.NewFromConfig(cfg),
		Ec2:                     ec2.NewFromConfig(cfg),
		Elasticache:             elasticache.NewFromConfig(cfg),
		Glue:                    glue.NewFromConfig(cfg),
		Kinesis:                 kinesis.NewFromConfig(cfg),
		Organizations:           organizations.NewFromConfig(cfg),
		Rolesanywhere:           rolesanywhere.NewFromConfig(cfg),
		Secretsmanager:          secretsmanager.NewFromConfig(cfg),
		Sqs:                     sqs.NewFromConfig(cfg),
	}
}
