// Package clients1 holds AWS clients.
package clients1

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	acmpca "github.com/aws/aws-sdk-go-v2/service/acmpca"
	bedrockagentcore "github.com/aws/aws-sdk-go-v2/service/bedrockagentcore"
	cloudwatchlogs "github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	ebs "github.com/aws/aws-sdk-go-v2/service/ebs"
	eks "github.com/aws/aws-sdk-go-v2/service/eks"
	firehose "github.com/aws/aws-sdk-go-v2/service/firehose"
	kafka "github.com/aws/aws-sdk-go-v2/service/kafka"
	memorydb "github.com/aws/aws-sdk-go-v2/service/memorydb"
	resourcegroupstaggingapi "github.com/aws/aws-sdk-go-v2/service/resourcegroupstaggingapi"
	sagemakerruntime "github.com/aws/aws-sdk-go-v2/service/sagemakerruntime"
	sns "github.com/aws/aws-sdk-go-v2/service/sns"
)

// Clients are the service clients.
type Clients struct {
	Acmpca                   *acmpca.Client
	Bedrockagentcore         *bedrockagentcore.Client
	Cloudwatchlogs           *cloudwatchlogs.Client
	Ebs                      *ebs.Client
	Eks                      *eks.Client
	Firehose                 *firehose.Client
	Kafka                    *kafka.Client
	Memorydb                 *memorydb.Client
	Resourcegroupstaggingapi *resourcegroupstaggingapi.Client
	Sagemakerruntime         *sagemakerruntime.Client
	Sns                      *sns.Client
}

// New makes every client.
func New(cfg aws.Config) *Clients {
	return &Clients{
		Acmpca:                   acmpca.NewFromConfig(cfg),
		Bedrockagentcore:         bedrockagentcore.NewFromConfig(cfg),
		Cloudwatchlogs:           cloudwatchlogs.NewFromConfig(cfg),
		Ebs:                      ebs.NewFromConfig(cfg),
		Eks:                      eks.NewFromConfig(cfg),
		Firehose:                 firehose.NewFromConfig(cfg),
		Kafka:                    kafka.NewFromConfig(cfg),
		Memorydb:                 memorydb.NewFromConfig(cfg),
		Resourcegroupstaggingapi: resourcegroupstaggingapi.NewFromConfig(cfg),
		Sagemakerruntime:         sagemakerruntime.NewFromConfig(cfg),
		Sns:                      sns.NewFromConfig(cfg),
	}
}
